/** Requests to a test's API server, and the message of one it must refuse. */
import { HttpStatusError, requestJSON } from '../../runtime/rest/index.js';

type Obj = Record<string, any>;

/** `kubeConfig` is read at each request: the control plane starts after the suite is declared. */
export function apiCalls(kubeConfig: () => Parameters<typeof requestJSON>[0]): {
  request: (method: 'POST' | 'PUT' | 'GET', path: string, body?: Obj, dryRun?: boolean) => Promise<Obj>;
  refusal: (call: Promise<unknown>) => Promise<string>;
} {
  return {
    request: async (method, path, body, dryRun = false) =>
      requestJSON<Obj>(kubeConfig(), {
        method,
        path,
        ...(dryRun ? { query: { dryRun: 'All' } } : {}),
        ...(body ? { body } : {}),
      }),
    /** `<code> <message>` of a call that must fail; a call that succeeds fails the test. */
    refusal: async (call) => {
      try {
        await call;
      } catch (error) {
        if (error instanceof HttpStatusError) return `${error.code} ${error.message}`;
        throw error;
      }
      throw new Error('the API server accepted what it should have refused');
    },
  };
}
