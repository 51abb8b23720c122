import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import {
  and,
  annotationsChanged,
  generationChanged,
  labelsChanged,
  newPredicateFuncs,
  not,
  or,
  predicateFuncs,
  resourceVersionChanged,
} from './index.js';

const obj = (meta: Record<string, unknown>): KubeObject => ({ metadata: { name: 'a', namespace: 'n', ...meta } });
const update = (o: Record<string, unknown>, n: Record<string, unknown>) => ({ objectOld: obj(o), objectNew: obj(n) });

describe('stock predicates', () => {
  it('generationChanged passes only updates with a new generation', () => {
    const p = generationChanged();
    expect(p.update(update({ generation: 1 }, { generation: 2 }))).toBe(true);
    expect(p.update(update({ generation: 1, resourceVersion: '1' }, { generation: 1, resourceVersion: '2' }))).toBe(
      false,
    );
    expect(p.create({ object: obj({}) })).toBe(true);
    expect(p.delete({ object: obj({}) })).toBe(true);
    expect(p.generic({ object: obj({}) })).toBe(true);
  });

  it('labelsChanged compares maps by content, absent equals empty', () => {
    const p = labelsChanged();
    expect(p.update(update({ labels: { a: '1' } }, { labels: { a: '1' } }))).toBe(false);
    expect(p.update(update({}, { labels: {} }))).toBe(false);
    expect(p.update(update({ labels: { a: '1' } }, { labels: { a: '2' } }))).toBe(true);
    expect(p.update(update({ labels: { a: '1' } }, { labels: { b: '1' } }))).toBe(true);
    expect(p.update(update({}, { labels: { a: '1' } }))).toBe(true);
  });

  it('annotationsChanged looks at annotations only', () => {
    const p = annotationsChanged();
    expect(p.update(update({ annotations: { x: '1' } }, { annotations: { x: '1' }, labels: { y: '2' } }))).toBe(false);
    expect(p.update(update({ annotations: { x: '1' } }, { annotations: { x: '2' } }))).toBe(true);
  });

  it('resourceVersionChanged drops resync replays', () => {
    const p = resourceVersionChanged();
    expect(p.update(update({ resourceVersion: '5' }, { resourceVersion: '5' }))).toBe(false);
    expect(p.update(update({ resourceVersion: '5' }, { resourceVersion: '6' }))).toBe(true);
  });
});

describe('composition', () => {
  const gen = update({ generation: 1 }, { generation: 2 });
  const lab = update({ generation: 1 }, { generation: 1, labels: { a: 'b' } });
  const none = update({ generation: 1 }, { generation: 1 });

  it('or passes when any passes, and when empty passes nothing', () => {
    const p = or(generationChanged(), labelsChanged());
    expect([p.update(gen), p.update(lab), p.update(none)]).toEqual([true, true, false]);
    expect(or().create({ object: obj({}) })).toBe(false);
  });

  it('and needs all, and when empty passes everything', () => {
    const p = and(generationChanged(), labelsChanged());
    expect(p.update(gen)).toBe(false);
    expect(p.update(update({ generation: 1 }, { generation: 2, labels: { a: 'b' } }))).toBe(true);
    expect(and().update(none)).toBe(true);
  });

  it('not inverts each event type', () => {
    const p = not(generationChanged());
    expect(p.update(gen)).toBe(false);
    expect(p.update(none)).toBe(true);
    expect(p.create({ object: obj({}) })).toBe(false);
  });
});

describe('function adapters', () => {
  it('predicateFuncs defaults missing methods to true', () => {
    const p = predicateFuncs({ delete: () => false });
    expect(p.delete({ object: obj({}) })).toBe(false);
    expect(p.create({ object: obj({}) })).toBe(true);
  });

  it('newPredicateFuncs applies one filter to the (new) object of every event', () => {
    const p = newPredicateFuncs((o) => o.metadata?.labels?.['keep'] === 'yes');
    const keep = obj({ labels: { keep: 'yes' } });
    expect(p.create({ object: keep })).toBe(true);
    expect(p.create({ object: obj({}) })).toBe(false);
    expect(p.update({ objectOld: obj({}), objectNew: keep })).toBe(true);
    expect(p.update({ objectOld: keep, objectNew: obj({}) })).toBe(false);
  });
});
