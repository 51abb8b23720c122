/**
 * Worker-thread side of background.ts: loads the reader (and with it ts-morph, about 0.2 s) as
 * soon as the thread starts, then reads the project named by the one message it gets and replies
 * with the ApiModel, which is plain data. Errors in user sources are diagnostics inside the model;
 * anything thrown is a bug and reaches the main thread as the worker's 'error' event.
 */
import { parentPort } from 'node:worker_threads';
import { readProjectApi } from './sources.js';

const port = parentPort;
if (!port) throw new Error('worker.js runs only as a worker thread');

port.once('message', (root: string) => {
  void readProjectApi(root)
    .then((model) => port.postMessage(model))
    .finally(() => port.close()); // nothing left to do: the thread exits and runs its exit handlers (the compile cache)
});
