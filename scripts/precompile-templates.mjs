// Part of `npm run build`: writes the precompiled templates next to dist/scaffold/render.js
// (see src/scaffold/precompile.ts).
import { writeFileSync } from 'node:fs';
import { precompiledModule } from '../dist/scaffold/precompile.js';
import { PRECOMPILED_MODULE } from '../dist/scaffold/templates.js';

writeFileSync(new URL(`../dist/scaffold/${PRECOMPILED_MODULE}`, import.meta.url), precompiledModule());
