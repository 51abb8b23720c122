/**
 * The reader on a worker thread, started early. `create api --make` starts it before it plans the
 * scaffold, so loading ts-morph overlaps planning and writing instead of following them; the
 * returned reader then parses what is on disk by then. The main thread keeps everything else of
 * `tsop manifests` (schemas, YAML, writing). Running from source, where there is no built worker
 * next to this module, there is no background reader and the command parses in-process.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ApiModel } from '../model.js';

export interface BackgroundReader {
  /** Parses the project at `root` (once); resolves when the worker has exited. */
  read(root: string): Promise<ApiModel>;
  /** Stops the worker when the model will not be needed (the scaffold failed). */
  cancel(): void;
}

const WORKER_FILE = fileURLToPath(new URL('./worker.js', import.meta.url));

export function startReaderInBackground(): BackgroundReader | undefined {
  if (!existsSync(WORKER_FILE)) return undefined;
  const worker = new Worker(WORKER_FILE);
  worker.unref(); // an unused worker must not keep the process alive after a failed scaffold
  // Settles once the worker has exited on its own after replying, so its exit handlers have run.
  const model = new Promise<ApiModel>((resolve, reject) => {
    let reply: ApiModel | undefined;
    let crash: Error | undefined;
    worker.once('message', (m: ApiModel) => (reply = m));
    worker.once('error', (error) => (crash = error));
    worker.once('exit', (code) => {
      if (reply) resolve(reply);
      else reject(crash ?? new Error(`the reader's worker thread exited with code ${code} before it replied`));
    });
  });
  model.catch(() => undefined); // observed only by read(); a cancelled worker's exit is expected
  return {
    read(root) {
      worker.ref();
      worker.postMessage(root);
      return model;
    },
    cancel() {
      void worker.terminate();
    },
  };
}
