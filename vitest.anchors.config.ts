import { defineConfig } from 'vitest/config';
import { decoratorsPlugin } from './runtime/testing/decorators-plugin.js';

// `npm run test:anchors`: tsop run beside the Go tools it promises parity with (operator-sdk), each
// built from the Go module proxy by its script under scripts/. A missing tool fails the run. Not
// part of `npm test`: building them costs many minutes, and `npm test` compares the committed
// output of the same tools (test/olm/parity, test/fixtures/controller-gen) instead.
export default defineConfig({
  plugins: [decoratorsPlugin()],
  test: {
    include: ['test/anchors/**/*.test.ts'],
    globalSetup: ['test/setup/kubectl-cache.ts', 'test/setup/built-cli.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
