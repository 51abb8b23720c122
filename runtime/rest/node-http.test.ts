import { describe, expect, it } from 'vitest';
import { runtimeImportLoads } from '../test-fixtures/helpers.js';

describe('node:http, required', () => {
  // On Node 22 and later an ESM import of node:http loads Node's bundled undici (its WebSocket
  // getters); on Node 20 this holds either way.
  it("importing the whole runtime does not load Node's bundled undici", () => {
    expect(runtimeImportLoads().builtins.filter((m) => m.includes('undici'))).toEqual([]);
  });
});
