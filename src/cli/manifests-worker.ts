/**
 * Worker-thread side of `create api --make`: loads the manifests generator (and with it ts-morph,
 * about 0.2 s) as soon as the thread starts, then runs `tsop manifests` when the main thread says
 * the scaffold is on disk. Output and errors travel back as plain messages (see manifests-background.ts).
 */
import { parentPort } from 'node:worker_threads';
import { UserError, UserErrors } from '../errors.js';
import type { ManifestsFlags } from './manifests.js';
import type { WorkerReply } from './manifests-background.js';

const port = parentPort;
if (!port) throw new Error('manifests-worker.js runs only as a worker thread');
const { runManifests } = await import('./manifests.js');

port.once('message', (flags: ManifestsFlags) => {
  const send = (reply: WorkerReply): void => port.postMessage(reply);
  runManifests(flags, { out: (text) => send({ type: 'out', text }), err: (text) => send({ type: 'err', text }) }).then(
    () => send({ type: 'done' }),
    (error: unknown) => {
      if (!(error instanceof UserError)) throw error; // a bug: reaches the main thread as the worker's 'error' event, stack included
      send({ type: 'failed', lines: error instanceof UserErrors ? error.errors.map((e) => e.message) : [error.message] });
    },
  ).finally(() => port.close()); // nothing left to do: the thread exits and runs its exit handlers
});
