/** controller-gen's CRD plural (flect on the kind, then lower-cased), quirks included. */
import { describe, expect, it } from 'vitest';
import { pluralOfKind, pluralize } from '../../src/project/plural.js';

describe('pluralOfKind', () => {
  it.each([
    ['CronJob', 'cronjobs'],
    ['Memcached', 'memcacheds'],
    ['Policy', 'policies'],
    ['Ingress', 'ingresses'],
    ['Proxy', 'proxies'],
    ['Bus', 'buses'],
    ['Status', 'statuses'],
    ['Index', 'indices'],
    ['Matrix', 'matrices'],
    ['Leaf', 'leaves'],
    ['Knife', 'knives'],
    ['Wolf', 'wolves'],
    ['Day', 'days'],
    ['Key', 'keys'],
    ['Box', 'boxes'],
    ['Quiz', 'quizzes'],
    ['Hero', 'heroes'],
    ['Photo', 'photos'],
    ['Gizmo', 'gizmoes'],
    ['Child', 'children'],
    ['Person', 'people'],
    ['Foot', 'feet'],
    ['Sheep', 'sheep'],
    ['Series', 'series'],
    ['Criterion', 'criteria'],
    ['Datum', 'data'],
    ['Medium', 'media'],
    ['Analysis', 'analyses'],
    ['Alias', 'aliases'],
    ['Cookie', 'cookies'],
    ['Movie', 'movies'],
    ['Database', 'databases'],
    ['Deployment', 'deployments'],
    ['Kind', 'kinds'],
    ['Api', 'apis'],
    ['Dns', 'dnsdnses'],
    ['Octopus', 'octupuses'],
    ['Toe', 'toes'],
    ['Bases', 'bases'],
    ['Equipment', 'equipment'],
    ['Information', 'information'],
  ])('%s → %s', (kind, plural) => {
    expect(pluralOfKind(kind)).toBe(plural);
  });
  it('keeps a capital when the dictionary word is capitalised and ignores empty input', () => {
    expect(pluralize('BigPerson')).toBe('BigPeople');
    expect(pluralize('')).toBe('');
  });
});
