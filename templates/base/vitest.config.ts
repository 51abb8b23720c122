import { defineConfig } from 'vitest/config';
import { decoratorsPlugin } from './src/runtime/testing/decorators-plugin.js';

// The plugin lowers the TC39 decorators on API classes and controllers the way tsc does for the
// build (Vite's own TypeScript transform leaves them as syntax Node cannot run yet).
export default defineConfig({
  plugins: [decoratorsPlugin()],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Controller tests start a real etcd and kube-apiserver; give them time to boot.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
