import { describe, expect, it } from 'vitest';
import {
  checkDomain,
  checkGroup,
  checkKind,
  checkPlural,
  checkProjectName,
  checkRepo,
  checkVersion,
  projectNameFromDir,
} from '../../src/project/naming.js';

const message = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('naming rules', () => {
  it.each([
    [
      () => checkKind('cronJob'),
      "--kind: 'cronJob' is not UpperCamelCase (starts with an upper-case letter; only letters and digits); use 'CronJob'",
    ],
    [
      () => checkKind('Cron_Job'),
      "--kind: 'Cron_Job' is not UpperCamelCase (starts with an upper-case letter; only letters and digits); use 'CronJob'",
    ],
    [
      () => checkVersion('1'),
      "--version: '1' is not a Kubernetes API version (v<N>, optionally followed by alpha<N> or beta<N>); use e.g. 'v1', 'v1alpha1' or 'v2beta1'",
    ],
    [
      () => checkVersion('v1gamma1'),
      "--version: 'v1gamma1' is not a Kubernetes API version (v<N>, optionally followed by alpha<N> or beta<N>); use e.g. 'v1', 'v1alpha1' or 'v2beta1'",
    ],
    [
      () => checkGroup('Batch', 'example.com'),
      [
        "--group: 'Batch' is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.'; each part",
        "starts and ends with a letter or digit); use a name like 'batch' or 'foo.policy' (the domain is",
        'added from PROJECT)',
      ].join(' '),
    ],
    [
      () => checkGroup('foo..policy', 'example.com'),
      [
        "--group: 'foo..policy' is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.'; each",
        "part starts and ends with a letter or digit); use a name like 'batch' or 'foo.policy' (the domain is",
        'added from PROJECT)',
      ].join(' '),
    ],
    [
      () => checkDomain('Example.com'),
      "--domain: 'Example.com' is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.'; each part starts and ends with a letter or digit); use something like 'example.com'",
    ],
    [
      () => checkProjectName('My_Project'),
      "--project-name: 'My_Project' is not a DNS-1123 label (at most 63 lower-case letters, " +
        "digits and '-', starting and ending with a letter or digit); pass --project-name with a " +
        "name like 'memcached-operator'",
    ],
    [
      () => checkPlural('CronJobs'),
      "--plural: 'CronJobs' is not a DNS-1123 label (lower-case letters, digits and '-'); use the lower-case plural, e.g. 'cronjobs'",
    ],
    [
      () => checkRepo('My Repo'),
      "--repo: 'My Repo' is not a valid npm package name (lower case, no spaces, optionally @scope/name); use e.g. 'memcached-operator' or '@example/memcached-operator'",
    ],
  ])('rejects bad input with one line naming flag, value, rule and fix (%#)', (fn, expected) => {
    expect(message(fn)).toBe(expected);
  });

  it('accepts good input', () => {
    for (const fn of [
      () => checkKind('CronJob'),
      () => checkKind('V2Thing'),
      () => checkVersion('v1'),
      () => checkVersion('v2beta3'),
      () => checkVersion('v1alpha1'),
      () => checkGroup('batch', 'example.com'),
      () => checkGroup('web-apps', 'my.domain'),
      // Dotted groups, as kubebuilder's sample projects have them (multigroup, deploy-image).
      () => checkGroup('foo.policy', 'testproject.org'),
      () => checkGroup('example.com', 'testproject.org'),
      () => checkDomain('tutorial.kubebuilder.io'),
      () => checkProjectName('memcached-operator'),
      () => checkRepo('@example/memcached-operator'),
    ]) {
      expect(message(fn)).toBe('no error');
    }
  });

  it('rejects a group that makes the full group too long', () => {
    expect(
      message(() =>
        checkGroup('a'.repeat(60), `${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`),
      ),
    ).toMatch(/^--group: 'a+' with domain '.*' is longer than 253 characters; choose a shorter group$/);
  });

  it('derives a project name from a directory name', () => {
    expect(projectNameFromDir('My_Operator')).toBe('my-operator');
    expect(projectNameFromDir('___')).toBeUndefined();
  });
});
