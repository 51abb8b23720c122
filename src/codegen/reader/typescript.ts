/** The compiler for the reader, which parses from the moment it is loaded (see src/typescript/compiler.ts). */
import { typescript } from '../../typescript/compiler.js';

export const ts = typescript();
