import { configDefaults, defineConfig } from 'vitest/config';
import { decoratorsPlugin } from 'tsop/vitest';

// The e2e tests need a deployed operator on a test cluster: only `npm run test:e2e` (or a run
// with E2E_CONTEXT set) includes them, as Go's e2e build tag keeps them out of `go test ./...`.
const e2e = process.env['npm_lifecycle_event'] === 'test:e2e' || process.env['E2E_CONTEXT'] !== undefined;

// The plugin lowers the TC39 decorators on API classes and controllers the way tsc does for the
// build (Vite's own TypeScript transform leaves them as syntax Node cannot run yet).
export default defineConfig({
  plugins: [decoratorsPlugin()],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(e2e ? [] : ['test/e2e/**'])],
    // The operator's logs stay quiet in tests (errors only); LOG_LEVEL=info npm test shows them.
    env: { LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'error' },
    // Controller tests start a real etcd and kube-apiserver; give them time to boot.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
