/**
 * When `tsop dev` starts the fuller plane by itself: the generated RBAC lets a controller create
 * workloads. --controllers and --nodes decide otherwise.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fullerPlaneChoice } from '../../src/dev/cluster.js';
import { workloadsCreated } from '../../src/dev/workloads.js';

const role = (rules: string): string => `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
${rules}`;

describe('workloads a project creates, from its role', () => {
  it('finds pods, apps and batch workloads the role may create', () => {
    const yaml = role(`- apiGroups: [""]
  resources: [pods, configmaps]
  verbs: [create, get]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [create, delete, get, list, patch, update, watch]
- apiGroups: [batch]
  resources: ["*"]
  verbs: ["*"]
`);
    expect(workloadsCreated(yaml)).toEqual(['cronjobs.batch', 'deployments.apps', 'jobs.batch', 'pods']);
  });

  it('ignores reading alone, other resources, and other kinds of document', () => {
    const yaml = `${role(`- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list, watch]
- apiGroups: [cache.example.com]
  resources: [memcacheds]
  verbs: [create]
`)}---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: pods
`;
    expect(workloadsCreated(yaml)).toEqual([]);
  });
});

describe('whether tsop dev starts the fuller plane', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tsop-dev-fuller-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const project = (rules: string): string => {
    const root = mkdtempSync(join(scratch, 'p-'));
    mkdirSync(join(root, 'config', 'rbac'), { recursive: true });
    writeFileSync(join(root, 'config', 'rbac', 'role.yaml'), role(rules));
    return root;
  };
  const makesPods = project('- apiGroups: [""]\n  resources: [pods]\n  verbs: [create]\n');
  const makesNothing = project('- apiGroups: [""]\n  resources: [configmaps]\n  verbs: [create]\n');

  it('turns it on by itself for controllers that create workloads, and says why', () => {
    expect(fullerPlaneChoice(makesPods, {})).toEqual({
      fuller: true,
      why: expect.stringMatching(
        /^the controllers create pods \(config\/rbac\/role\.yaml\): starting the fuller plane/,
      ),
    });
    expect(fullerPlaneChoice(makesNothing, {})).toEqual({ fuller: false });
  });

  it('follows --controllers either way, and --nodes turns it on', () => {
    expect(fullerPlaneChoice(makesPods, { controllers: false })).toEqual({ fuller: false });
    expect(fullerPlaneChoice(makesNothing, { controllers: true })).toEqual({ fuller: true });
    expect(fullerPlaneChoice(makesNothing, { nodes: 3 }).fuller).toBe(true);
    expect(() => fullerPlaneChoice(makesNothing, { controllers: false, nodes: 2 })).toThrow(
      /--nodes 2 needs the fuller plane .* --controllers=false turns it off; pass one of them/,
    );
  });
});
