/** vitest setup file: each test file's temp folders from file-temp-roots.ts go when its tests end. */
import { afterAll } from 'vitest';
import { removeFileTempRoots } from './file-temp-roots.js';

afterAll(removeFileTempRoots);
