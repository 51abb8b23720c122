/**
 * What runtime/apimachinery/index.ts exported before the HTTP layer, the kubeconfig and the REST
 * mapper moved out of it, by the module each name lives in now. apimachinery keeps re-exporting
 * every one of them, marked @deprecated, until tsop 0.3.0; the tests that hold it to that promise
 * (runtime/apimachinery/moved.test.ts, test/upgrade/deprecated-uses.test.ts) read this list.
 */
export const MOVED_FROM_APIMACHINERY = {
  rest: {
    values: ['HttpStatusError', 'TransportError', 'openRequest', 'openRequestCount', 'requestJSON', 'readBody', 'statusError', 'ApiConnection', 'DEFAULT_MAX_SOCKETS', 'connectionFor', 'connectionOf', 'parseWarnings'],
    types: ['ApiStatus', 'KubeRequest', 'RequestMetrics', 'ConnectionSource', 'Answer', 'ConnectionOptions'],
  },
  kubeconfig: {
    values: ['Credentials', 'CredentialError', 'KubeConfigError', 'LoadedKubeConfig', 'loadKubeConfig', 'loadKubeConfigFile', 'SERVICE_ACCOUNT_DIR'],
    types: ['Credential', 'KubeConfigSource', 'LoadKubeConfigOptions'],
  },
  restmapper: {
    values: ['NoKindMatchError', 'RESTMapper', 'resourcePath', 'groupVersionPath'],
    types: ['ResourceMapping', 'PathOptions'],
  },
} as const;

export type NewHome = keyof typeof MOVED_FROM_APIMACHINERY;

/** Each moved name with its new module, values first, in the list's order. */
export function movedNames(): Array<{ name: string; module: NewHome; type: boolean }> {
  return Object.entries(MOVED_FROM_APIMACHINERY).flatMap(([module, { values, types }]) => [
    ...values.map((name) => ({ name, module: module as NewHome, type: false })),
    ...types.map((name) => ({ name, module: module as NewHome, type: true })),
  ]);
}
