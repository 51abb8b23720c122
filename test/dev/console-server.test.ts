/**
 * The console's stream on a real loopback server: a burst of what the store learns reaches an
 * open page whole and in order, in a few writes rather than one per event, and a page opened
 * during a burst gets it once, in its snapshot.
 */
import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { ConsoleServer } from '../../src/dev/console/server.js';
import { ConsoleStore } from '../../src/dev/console/store.js';

const servers: ConsoleServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An open stream: the chunks it has read, and the restart marks told in them (snapshot first). */
function openStream(url: string): Promise<{ chunks: string[]; text: () => string; close: () => void }> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    const req = request(`${url}/events`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        chunks.push(c);
        if (chunks.length === 1) resolve({ chunks, text: () => chunks.join(''), close: () => req.destroy() });
      });
    });
    req.on('error', () => undefined);
    req.end();
  });
}

const restartsTold = (text: string): number[] =>
  text
    .split('\n\n')
    .filter((e) => e.startsWith('event: restart\n'))
    .map((e) => (JSON.parse(e.slice(e.indexOf('data: ') + 6)) as { at: number }).at);

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

it('tells a burst of 500 events in order, in a few writes', async () => {
  const store = new ConsoleStore();
  const server = new ConsoleServer({ store, trigger: () => Promise.resolve('') });
  servers.push(server);
  const stream = await openStream(await server.listen());
  const afterSnapshot = stream.chunks.length;
  for (let i = 0; i < 500; i++) store.addRestart({ at: i, why: 'change', ok: true, errors: [] });
  await until(() => restartsTold(stream.text()).length === 500);
  stream.close();
  expect(restartsTold(stream.text())).toEqual(Array.from({ length: 500 }, (_, i) => i));
  // One write per event would be 500 chunks; the batch arrives in a handful (TCP may split it).
  expect(stream.chunks.length - afterSnapshot).toBeLessThan(20);
});

it('gives a page opened during a burst each event once: the earlier ones in its snapshot', async () => {
  const store = new ConsoleStore();
  const server = new ConsoleServer({ store, trigger: () => Promise.resolve('') });
  servers.push(server);
  const url = await server.listen();
  const first = await openStream(url);
  for (let i = 0; i < 5; i++) store.addRestart({ at: i, why: 'change', ok: true, errors: [] });
  const second = await openStream(url);
  for (let i = 5; i < 10; i++) store.addRestart({ at: i, why: 'change', ok: true, errors: [] });
  await until(() => restartsTold(first.text()).length === 10 && restartsTold(second.text()).length === 5);
  first.close();
  second.close();
  const snapshot = second.text().split('\n\n')[0] ?? '';
  const inSnapshot = (JSON.parse(snapshot.slice(snapshot.indexOf('data: ') + 6)) as { restarts: { at: number }[] })
    .restarts;
  expect(inSnapshot.map((r) => r.at)).toEqual([0, 1, 2, 3, 4]);
  expect(restartsTold(second.text())).toEqual([5, 6, 7, 8, 9]);
  expect(restartsTold(first.text())).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

it('tells an object changed many times within one batch once, at its latest version', async () => {
  const store = new ConsoleStore();
  const server = new ConsoleServer({ store, trigger: () => Promise.resolve('') });
  servers.push(server);
  const stream = await openStream(await server.listen());
  const version = (uid: string, rv: number) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { uid, name: uid, namespace: 'default', resourceVersion: String(rv) },
    data: { rv: String(rv) },
  });
  // Written in one go (no await), so all of them fall into one batch.
  for (let rv = 1; rv <= 50; rv++) store.addObjectEvent(rv === 1 ? 'ADDED' : 'MODIFIED', version('a', rv), true);
  store.addObjectEvent('ADDED', version('b', 51), true);
  await until(() => stream.text().includes('"uid":"b"'));
  stream.close();
  const told = stream
    .text()
    .split('\n\n')
    .filter((e) => e.startsWith('event: object\n'))
    .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as { uid: string; versions: number });
  expect(told).toEqual([
    expect.objectContaining({ uid: 'a', versions: 20 }),
    expect.objectContaining({ uid: 'b', versions: 1 }),
  ]);
  // The history keeps every version the ring holds; only the stream folded them.
  expect(
    store
      .detail('a')
      ?.versions.map((v) => v.resourceVersion)
      .at(-1),
  ).toBe('50');
});
