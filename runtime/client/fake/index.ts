/** An in-memory Client for unit tests of reconcilers; see fake-client.ts for what it models. */
export { FakeClient, createFakeClient, type FakeClientOptions, type Verb, type Action } from './fake-client.js';
export { applyMergePatch, applyJsonPatch, PatchApplyError } from './apply-patch.js';
