/**
 * Preloaded (`node --import`) into the operator `tsop dev` runs, so Node loads the project's
 * TypeScript sources through hooks.ts, and the operator ends when the session does (lifeline.ts).
 */
import { register } from 'node:module';
import { followLifeline } from './lifeline.js';

register(new URL('./hooks.js', import.meta.url));
followLifeline();
