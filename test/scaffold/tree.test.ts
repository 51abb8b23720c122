import { describe, expect, it } from 'vitest';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserErrors } from '../../src/errors.js';
import { commitTree, describeChanges } from '../../src/scaffold/commit.js';
import { diskSource, Tree, type FileSource } from '../../src/scaffold/tree.js';
import { tempProject } from './harness.js';

const memory = (files: Record<string, string>): FileSource => ({ read: (p) => files[p] });

describe('virtual tree', () => {
  it('records creates, overwrites and updates, sorted by path', () => {
    const tree = new Tree(memory({ 'a.txt': 'old', 'main.ts': 'x\n// +marker\n' }));
    tree.create('z/new.txt', 'new');
    tree.create('a.txt', 'forced', { force: true });
    tree.insert('main.ts', '+marker', 'y();');
    expect(tree.problems).toEqual([]);
    expect(tree.listChanges().map((c) => [c.path, c.kind])).toEqual([
      ['a.txt', 'overwrite'],
      ['main.ts', 'update'],
      ['z/new.txt', 'create'],
    ]);
    expect(tree.read('main.ts')).toBe('x\ny();\n// +marker\n');
    expect(describeChanges(tree.listChanges())).toBe('overwrite a.txt\nupdate    main.ts\ncreate    z/new.txt\n');
  });

  it('refuses to create over an existing file without force, and twice in one plan', () => {
    const tree = new Tree(memory({ 'a.txt': 'old' }));
    tree.create('a.txt', 'new');
    tree.create('b.txt', '1');
    tree.create('b.txt', '2');
    expect(tree.problems).toEqual([
      'a.txt already exists; pass --force to overwrite it',
      'b.txt is written twice by one plan',
    ]);
  });

  it('inserts with the marker indentation and never twice', () => {
    const tree = new Tree(memory({ 'f.yaml': 'resources:\n  # +kubebuilder:scaffold:x\n' }));
    tree.insert('f.yaml', '+kubebuilder:scaffold:x', '- a.yaml');
    tree.insert('f.yaml', '+kubebuilder:scaffold:x', '- a.yaml');
    tree.insert('f.yaml', '+kubebuilder:scaffold:x', '- b.yaml\n- c.yaml');
    expect(tree.read('f.yaml')).toBe('resources:\n  - a.yaml\n  - b.yaml\n  - c.yaml\n  # +kubebuilder:scaffold:x\n');
  });

  it('reports a missing marker or file as a problem naming both', () => {
    const tree = new Tree(memory({ 'main.ts': 'no marker here\n' }));
    tree.insert('main.ts', '+kubebuilder:scaffold:builder', 'x();');
    tree.insert('gone.ts', '+m', 'x();');
    expect(tree.problems).toEqual([
      "main.ts: marker '+kubebuilder:scaffold:builder' not found; restore the line containing it to let tsop add code there",
      "gone.ts does not exist; cannot insert at marker '+m'",
    ]);
  });

  it('writes nothing when any part of the plan is invalid', async () => {
    const dir = tempProject('tree');
    writeFileSync(join(dir, 'exists.txt'), 'keep');
    const tree = new Tree(diskSource(dir));
    tree.create('fresh.txt', 'new');
    tree.create('exists.txt', 'clobber');
    await expect(commitTree(dir, tree)).rejects.toThrow(UserErrors);
    expect(existsSync(join(dir, 'fresh.txt'))).toBe(false);
    expect(readFileSync(join(dir, 'exists.txt'), 'utf8')).toBe('keep');
  });

  it('commits a valid plan to disk', async () => {
    const dir = tempProject('tree');
    const tree = new Tree(diskSource(dir));
    tree.create('deep/er/file.txt', 'hello');
    const changes = await commitTree(dir, tree);
    expect(changes).toHaveLength(1);
    expect(readFileSync(join(dir, 'deep/er/file.txt'), 'utf8')).toBe('hello');
  });
});
