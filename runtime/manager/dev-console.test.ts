/**
 * The dev console's object feed keeps the informers' order: a batch is sent only after the one
 * before it was answered, so a slow answer cannot let a later change reach the console first.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/index.js';
import type { RESTMapper } from '../restmapper/index.js';
import { DevObjectReporter, type DevObjectsReport } from './dev-console.js';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const mapper = {
  mapping: async () => ({ plural: 'configmaps' }),
} as unknown as Pick<RESTMapper, 'mapping'>;

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function until(ok: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 4_000; !ok() && Date.now() < deadline; )
    await new Promise((r) => setTimeout(r, 10));
}

it('sends the next batch only once the console has answered the one before', async () => {
  const events: string[] = [];
  let answerFirst: (() => void) | undefined;
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const names = (JSON.parse(text) as DevObjectsReport).objects.map((o) => `${o.type} ${o.object.metadata?.name}`);
      events.push(`received ${names.join(', ')}`);
      // The console is slow to answer the first batch; the test says when it answers.
      if (!answerFirst) {
        answerFirst = () => {
          events.push('answered the first');
          res.end('{}');
        };
      } else res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/dev/objects`);

  const reporter = new DevObjectReporter(url, mapper);
  const cm = (rv: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'ns', resourceVersion: rv },
  });
  reporter.observe(CM, 'ADDED', cm('1'));
  await until(() => answerFirst !== undefined);
  reporter.observe(CM, 'MODIFIED', cm('2'));
  // Three batch periods: long enough for a reporter that does not wait to send the change.
  await new Promise((r) => setTimeout(r, 150));
  answerFirst?.();
  await until(() => events.length === 3);

  expect(events).toEqual(['received ADDED a', 'answered the first', 'received MODIFIED a']);
});
