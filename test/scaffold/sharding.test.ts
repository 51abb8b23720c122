/**
 * The runtime's sharding module is optional: a new project has no src/runtime/sharding/ (and
 * nothing else of its runtime imports it), `tsop edit --sharding` adds it (files, barrel line,
 * checksums), records it in PROJECT and has main.ts pass its engine to the manager, and
 * `alpha generate` replays it from PROJECT.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateProject } from '../../src/cli/alpha-generate.js';
import { runEdit } from '../../src/cli/edit.js';
import { runInit } from '../../src/cli/init.js';
import { UserError } from '../../src/errors.js';
import { parseProject } from '../../src/project/config.js';
import { runtimeChecksums, runtimeFiles } from '../../src/scaffold/embedded-runtime.js';
import { captured, readTree, tempProject } from './harness.js';

async function fresh(name: string): Promise<string> {
  const dir = tempProject(name);
  await runInit({ dir, domain: 'example.com', skipInstall: true }, captured());
  return dir;
}

const runtime = (tree: Record<string, string>, under: string): string[] =>
  Object.keys(tree)
    .filter((p) => p.startsWith(under))
    .sort();

describe('the sharding module of the runtime', { timeout: 60_000 }, () => {
  it('is not in a new project, and nothing of its runtime imports it', async () => {
    const tree = readTree(await fresh('plain'));
    expect(runtime(tree, 'src/runtime/sharding/')).toEqual([]);
    expect(tree['src/runtime/index.ts']).not.toContain('sharding');
    expect(tree['src/runtime/CHECKSUMS']).not.toContain('sharding/');
    expect(tree['src/runtime/CHECKSUMS']).toBe(runtimeChecksums(runtimeFiles([])));
    expect(tree['src/main.ts']).not.toContain('shardingEngine');
    // Shape-wise it compiles: no file left in src/runtime/ (nor main.ts) imports the missing module.
    const importsSharding = /from\s+['"][^'"]*\/sharding\/[^'"]*['"]/;
    const importers = Object.entries(tree)
      .filter(([p, text]) => p.endsWith('.ts') && importsSharding.test(text))
      .map(([p]) => p);
    expect(importers).toEqual([]);
  });

  it('edit --sharding adds it, records it in PROJECT and has main.ts pass it to the manager; a second run changes nothing', async () => {
    const dir = await fresh('sharded');
    const before = readTree(dir);
    const io = captured();
    await runEdit({ dir, sharding: true }, io);
    const after = readTree(dir);
    const embedded = runtimeFiles(['sharding']).filter(([p]) => p.startsWith('src/runtime/sharding/'));
    expect(embedded.length).toBeGreaterThan(10);
    expect(runtime(after, 'src/runtime/sharding/')).toEqual(embedded.map(([p]) => p).sort());
    for (const [path, content] of embedded) expect(after[path], path).toBe(content);
    // The barrel (which has no line for sharding/: its names stay under runtime/sharding) and CHECKSUMS
    // are a runtime with the module, as the embedding writes it; VERSION stays.
    const withModule = new Map(runtimeFiles(['sharding']));
    expect(after['src/runtime/index.ts']).toBe(withModule.get('src/runtime/index.ts'));
    expect(after['src/runtime/CHECKSUMS']).toBe(runtimeChecksums(runtimeFiles(['sharding'])));
    expect(after['src/runtime/VERSION']).toBe(before['src/runtime/VERSION']);
    expect(parseProject(after['PROJECT']!).sharding).toBe(true);
    expect(after['src/main.ts']).toContain("import { shardingEngine } from './runtime/sharding/index.js';\n");
    expect(after['src/main.ts']).toContain(
      [
        '  logger: log,',
        "  // Runs --sharding=<ring> (or the sharding option): this replica's part in the ring.",
        '  shardingEngine,',
        '  // +kubebuilder:scaffold:manager-options',
      ].join('\n'),
    );
    // Nothing else changed.
    const changed = Object.keys(after).filter((p) => before[p] !== after[p] && !p.startsWith('src/runtime/sharding/'));
    expect(changed.sort()).toEqual(['PROJECT', 'src/main.ts', 'src/runtime/CHECKSUMS']);

    const second = captured();
    await runEdit({ dir, sharding: true }, second);
    expect(readTree(dir)).toEqual(after);
    expect(second.stderr).not.toMatch(/^(created|updated|deleted) /m);
  });

  it('alpha generate replays it from PROJECT', async () => {
    const dir = await fresh('sharded-source');
    await runEdit({ dir, sharding: true }, captured());
    const source = readTree(dir);
    // Under the harness's temp root, which it removes after the file.
    const output = join(tempProject('sharding-generate'), 'out');
    await generateProject(parseProject(source['PROJECT']!), output);
    const generated = readTree(output);
    for (const path of ['PROJECT', 'src/main.ts', 'src/runtime/index.ts', 'src/runtime/CHECKSUMS'])
      expect(generated[path], path).toBe(source[path]);
    expect(runtime(generated, 'src/runtime/sharding/')).toEqual(runtime(source, 'src/runtime/sharding/'));
  });

  it('edit --sharding=false is refused, naming what to undo by hand', async () => {
    const dir = await fresh('unshard');
    await expect(runEdit({ dir, sharding: false }, captured())).rejects.toThrow(UserError);
    await expect(runEdit({ dir, sharding: false }, captured())).rejects.toThrow(/--sharding=false is not supported/);
  });
});
