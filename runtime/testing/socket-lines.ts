/**
 * The plane broker's wire format: one JSON message per line. `onLines` calls `handle` with each
 * complete line a socket receives, however the lines arrive split across chunks.
 */
import type { Socket } from 'node:net';

export function onLines(socket: Socket, handle: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      handle(line);
    }
  });
}
