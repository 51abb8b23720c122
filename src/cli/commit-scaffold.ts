/**
 * How the scaffolding commands end (create api, create webhook, import): the tree is committed
 * and, when asked, `tsop manifests` runs on the written files as part of the commit, so a failure
 * there undoes the scaffold too (scaffold/commit.ts). The files are reported first (`created …`),
 * then what manifests said, held back until then; on a failure, what it had said comes before
 * the error.
 */
import { commitTree } from '../scaffold/commit.js';
import type { Change, Tree } from '../scaffold/tree.js';
import type { CommandIO } from './io.js';
import type { ApiReader, ManifestsIO } from './manifests.js';

/** The manifests step: where its output goes, and the reader (one already started, for create api). */
export interface ManifestsStep {
  say: ManifestsIO;
  readApi?: ApiReader | undefined;
}

export async function commitScaffold(
  root: string,
  tree: Tree,
  io: Pick<CommandIO, 'err'>,
  manifests: ManifestsStep | undefined,
): Promise<Change[]> {
  const written = (changes: readonly Change[]): void => {
    for (const c of changes) io.err(`${c.kind === 'create' ? 'created' : 'updated'} ${c.path}\n`);
  };
  if (manifests === undefined) {
    const changes = await commitTree(root, tree);
    written(changes);
    return changes;
  }
  const held: [(t: string) => void, string][] = [];
  const flush = (): void => {
    for (const [write, text] of held.splice(0)) write(text);
  };
  const changes = await commitTree(root, tree, async () => {
    const { runManifests } = await import('./manifests.js');
    const say = manifests.say;
    await runManifests(
      { dir: root },
      { out: (t) => void held.push([say.out, t]), err: (t) => void held.push([say.err, t]) },
      manifests.readApi,
    ).catch((error: unknown) => {
      flush();
      throw error;
    });
  });
  written(changes);
  flush();
  return changes;
}
