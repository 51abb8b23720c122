/**
 * Preloaded (`node --import`) into the operator `tsop dev` runs, so Node loads the project's
 * TypeScript sources through hooks.ts.
 */
import { register } from 'node:module';

register(new URL('./hooks.js', import.meta.url));
