/**
 * The marker catalog and the runtime decorators stay one to one: every decorator users can import
 * has exactly one catalog entry, and the help text is generated from the catalog.
 */
import { describe, expect, it } from 'vitest';
import * as runtimeMarkers from '../../runtime/markers/index.js';
import { MARKERS, markerByName, markerHelp } from '../../src/codegen/markers/index.js';

describe('marker catalog', () => {
  // Decorators are UpperCamelCase functions; the module also exports helpers (parseTime) and error classes.
  const isDecorator = (name: string, v: unknown): boolean =>
    typeof v === 'function' && /^[A-Z]/.test(name) && !/^class\b/.test(Function.prototype.toString.call(v));
  const decorators = Object.entries(runtimeMarkers)
    .filter(([k, v]) => isDecorator(k, v))
    .map(([k]) => k)
    .sort();
  it('has one entry per runtime decorator, and no entry without one', () => {
    expect(MARKERS.map((m) => m.name).sort()).toEqual(decorators);
    expect(new Set(MARKERS.map((m) => m.name)).size).toBe(MARKERS.length);
  });
  it('every entry has a doc, an example that uses it, and its controller-gen name', () => {
    for (const m of MARKERS) {
      expect(m.doc.length, m.name).toBeGreaterThan(10);
      expect(m.example, m.name).toContain(`@${m.name}`);
      // tsop's own markers (a check controller-gen does not make) say so instead.
      expect(m.controllerGen, m.name).toMatch(/^(\+|\(none: )/);
    }
  });
  it('Items variants exist for every element validation', () => {
    for (const base of ['Minimum', 'Maximum', 'Pattern', 'Enum', 'MaxLength', 'XValidation'])
      expect(markerByName(`Items${base}`)?.target).toBe('schema');
  });
  it('the help text lists every marker with its usage', () => {
    const help = markerHelp();
    for (const m of MARKERS) expect(help).toContain(`@${m.name}${m.args.usage}`);
  });
  it('the help text lists the group-version options with an example', () => {
    const help = markerHelp();
    expect(help).toContain("version: 'v1', fields: 'optional' };");
    expect(help).toContain("version: 'v1', skip: true };");
  });
  it('decorators are no-ops at run time on fields and classes', () => {
    @runtimeMarkers.Resource({ scope: 'Cluster' })
    @runtimeMarkers.Rbac({ verbs: ['get'], resources: ['x'] })
    class K {
      @runtimeMarkers.Minimum(1) @runtimeMarkers.Default(3) n?: number = 2;
    }
    expect(new K().n).toBe(2);
    expect(K.name).toBe('K');
  });
});
