/**
 * `tsop envtest`'s wiring: the modules it loads from runtime/envtest fit the interfaces it loads
 * them through, and every base URL the download code reads from a variable has its flag.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as assets from '../../runtime/envtest/assets.js';
import * as download from '../../runtime/envtest/download/index.js';
import * as envtest from '../../runtime/envtest/index.js';
import { buildProgram } from '../../src/cli/main.js';
import type { AssetsModule, DownloadModule } from '../../src/cli/envtest.js';
import type { DevEnvtest } from '../../src/dev/cluster.js';

describe('tsop envtest', () => {
  it('loads runtime modules that fit the interfaces it uses (checked by the type-check; here, that they load)', () => {
    const loaded: [DownloadModule, AssetsModule, DevEnvtest] = [download, assets, envtest];
    expect(loaded.map((m) => Object.keys(m).length > 0)).toEqual([true, true, true]);
    expect(download.ENVTEST_BINARIES).toEqual(['etcd', 'kube-apiserver', 'kubectl']);
  });

  for (const sub of ['use', 'list']) {
    it(`envtest ${sub} has a flag for every base URL, naming its variable`, () => {
      const cmd = buildProgram()
        .commands.find((c) => c.name() === 'envtest')
        ?.commands.find((c) => c.name() === sub);
      expect(cmd).toBeDefined();
      for (const s of download.SOURCE_SETTINGS) {
        const option = cmd!.options.find((o) => o.long === `--${s.flag}`);
        expect(option, s.flag).toBeDefined();
        expect(option!.description).toContain(s.env);
      }
    });
  }

  it('downloads the versions scripts/control-plane.sh builds', () => {
    const script = readFileSync(new URL('../../scripts/control-plane.sh', import.meta.url), 'utf8');
    expect(/KUBE_VERSION="\$\{KUBE_VERSION:-([\d.]+)\}"/.exec(script)?.[1]).toBe(assets.PINNED_KUBE_VERSION);
    expect(/KWOK_VERSION="\$\{KWOK_VERSION:-([\d.]+)\}"/.exec(script)?.[1]).toBe(download.PINNED_KWOK_VERSION);
  });
});
