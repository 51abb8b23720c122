/**
 * `tsop manifests` started early on a worker thread. `create api --make` starts it before it plans
 * the scaffold, so loading ts-morph overlaps the planning and writing instead of following it;
 * `run` then generates from what is on disk. Running from source (no built worker next to this
 * module), `run` falls back to an in-process call.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserError, UserErrors } from '../errors.js';
import type { ManifestsFlags, ManifestsIO } from './manifests.js';

/** Messages from the worker; the last one is `done` or `failed`. */
export type WorkerReply = { type: 'out'; text: string } | { type: 'err'; text: string } | { type: 'done' } | { type: 'failed'; lines: string[] };

export interface BackgroundManifests {
  /** Runs `tsop manifests` with `flags`; rejects with a UserError as the in-process command would. */
  run(flags: ManifestsFlags, io: ManifestsIO): Promise<void>;
  /** Stops the worker when the scaffold failed and manifests will not run. */
  cancel(): void;
}

const WORKER_FILE = fileURLToPath(new URL('./manifests-worker.js', import.meta.url));

export function startManifestsInBackground(): BackgroundManifests {
  if (!existsSync(WORKER_FILE)) return inProcess;
  const worker = new Worker(WORKER_FILE);
  worker.unref(); // an unused worker must not keep the process alive after a failed scaffold
  let io: ManifestsIO | undefined;
  // Settles when the worker has exited on its own after its last reply (so its exit handlers,
  // which save the compile cache, have run).
  const finished = new Promise<void>((resolve, reject) => {
    let result: 'done' | UserErrors | undefined;
    let crash: Error | undefined;
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'out') io?.out(reply.text);
      else if (reply.type === 'err') io?.err(reply.text);
      else result = reply.type === 'done' ? 'done' : new UserErrors(reply.lines.map((line) => new UserError(line)));
    });
    worker.on('error', (error) => (crash = error));
    worker.on('exit', (code) => {
      if (crash) reject(crash);
      else if (result === 'done') resolve();
      else reject(result ?? new Error(`the manifests worker exited with code ${code} before it finished`));
    });
  });
  finished.catch(() => undefined); // observed only by run(); a cancelled worker's exit is expected
  return {
    run(flags, out) {
      io = out;
      worker.ref();
      worker.postMessage(flags);
      return finished;
    },
    cancel() {
      void worker.terminate();
    },
  };
}

const inProcess: BackgroundManifests = {
  async run(flags, io) {
    const { runManifests } = await import('./manifests.js');
    await runManifests(flags, io);
  },
  cancel() {},
};
