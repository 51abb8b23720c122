/**
 * node:http, loaded with require. An ESM import of node:http makes Node 22 and later build the
 * module's ESM facade, which reads every export, including the lazy getters (WebSocket and its
 * events) that load Node's bundled undici: 10–15 ms of every operator's start-up for something
 * nothing here uses. Types still come from `import type * as http from 'node:http'`.
 */
import { createRequire } from 'node:module';

export const nodeHttp = createRequire(import.meta.url)('node:http') as typeof import('node:http');
