/**
 * `create api`'s default --plural: the CRD plural controller-gen derives (flect's Pluralize of the
 * kind, lower-cased). Expected values are flect v1's own singular/plural table (gobuffalo/flect
 * flect_test.go) plus the kubebuilder quirks users meet; plural-table.test.ts checks ~700 kinds
 * against controller-gen itself.
 */
import { describe, expect, it } from 'vitest';
import { pluralOfKind } from '../../src/project/plural.js';
import { resourceNames } from '../../src/project/resource.js';
import { LAYOUT } from '../../src/project/config.js';

const TABLE: Array<[kind: string, plural: string]> = [
  // kubebuilder's own examples and quirks
  ['CronJob', 'cronjobs'],
  ['Memcached', 'memcacheds'],
  ['Policy', 'policies'],
  ['Guestbook', 'guestbooks'],
  ['Ingress', 'ingresses'],
  ['Proxy', 'proxies'],
  ['Frigate', 'frigates'],
  ['AlnairPod', 'alnairpods'],
  ['At', 'ats'],
  // -y
  ['Day', 'days'],
  ['Hobby', 'hobbies'],
  ['Agency', 'agencies'],
  ['Abbey', 'abbeys'],
  ['Category', 'categories'],
  ['Entity', 'entities'],
  ['Cookie', 'cookies'],
  // -f / -fe
  ['Calf', 'calves'],
  ['Dwarf', 'dwarfs'],
  ['Knife', 'knives'],
  ['Leaf', 'leaves'],
  ['Safe', 'saves'],
  ['Belief', 'beliefs'],
  ['Roof', 'roofs'],
  ['Beef', 'beef'],
  // -ch -sh -s -x -z
  ['Switch', 'switches'],
  ['Marsh', 'marshes'],
  ['Bus', 'buses'],
  ['Campus', 'campuses'],
  ['Status', 'statuses'],
  ['Virus', 'viruses'],
  ['Address', 'addresses'],
  ['Box', 'boxes'],
  ['Quiz', 'quizzes'],
  ['Waltz', 'waltzes'],
  // Latin and Greek
  ['Datum', 'data'],
  ['Maximum', 'maxima'],
  ['Stadium', 'stadiums'],
  ['Museum', 'museums'],
  ['Index', 'indices'],
  ['Matrix', 'matrices'],
  ['Appendix', 'appendices'],
  ['Analysis', 'analyses'],
  ['Tetrahedron', 'tetrahedra'],
  ['Nebula', 'nebulae'],
  ['Formula', 'formulas'],
  // -o
  ['Photo', 'photos'],
  ['Potato', 'potatoes'],
  ['Piano', 'pianos'],
  ['Zoo', 'zoos'],
  // irregular and uncountable, also as the last word of a compound kind
  ['Child', 'children'],
  ['GoodChild', 'goodchildren'],
  ['SmartPerson', 'smartpeople'],
  ['Mouse', 'mice'],
  ['Equipment', 'equipment'],
  ['Media', 'media'],
  ['Tableau', 'tableaux'],
  ['Bureau', 'bureaus'],
  ['Service', 'services'],
  ['Device', 'devices'],
  ['Database', 'databases'],
];

describe('default plural of a kind (controller-gen / flect)', () => {
  it('covers at least 40 kinds', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)('%s → %s', (kind, plural) => {
    expect(pluralOfKind(kind)).toBe(plural);
  });

  it('is what create api records and uses in paths', () => {
    const config = {
      version: '3' as const,
      domain: 'example.com',
      layout: [LAYOUT],
      projectName: 'p',
      repo: 'p',
      resources: [],
      plugins: {},
    };
    const n = resourceNames(config, { group: 'cache', version: 'v1', kind: 'Memcached', domain: 'example.com' });
    expect(n.plural).toBe('memcacheds');
    expect(n.paths.crd).toBe('config/crd/bases/cache.example.com_memcacheds.yaml');
  });
});
