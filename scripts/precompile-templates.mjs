// Part of `npm run build`: writes the precompiled templates next to dist/src/scaffold/render.js
// (see src/scaffold/precompile.ts).
import { writeFileSync } from 'node:fs';
import { precompiledModule } from '../dist/src/scaffold/precompile.js';
import { PRECOMPILED_MODULE } from '../dist/src/scaffold/templates.js';

writeFileSync(new URL(`../dist/src/scaffold/${PRECOMPILED_MODULE}`, import.meta.url), precompiledModule());
