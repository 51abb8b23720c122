/**
 * Module augmentation (`declare module './types.js' { interface Spec { extra?: string } }`) merges
 * into a type of another file, which the reader, reading each declaration where it stands, does not
 * see. Rather than lose those fields, it is an error that says where to declare them.
 */
import { posix } from 'node:path';
import type { ts as TS } from 'ts-morph';
import { ts } from './typescript.js';
import type { Diagnostic } from '../model.js';
import { moduleFile } from './exports.js';
import { fileIndex, lineOf } from './syntax.js';

export function augmentationProblems(files: Iterable<TS.SourceFile>, rel: (f: TS.SourceFile) => string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of files) {
    for (const st of file.statements) {
      if (!ts.isModuleDeclaration(st) || !ts.isStringLiteral(st.name) || !st.body || !ts.isModuleBlock(st.body))
        continue;
      const target = moduleFile(file, st.name.text);
      if (!target) continue; // a package's module: not an API type
      for (const d of st.body.statements) {
        if (!ts.isInterfaceDeclaration(d) && !ts.isClassDeclaration(d)) continue;
        const name = d.name?.text;
        if (name === undefined || !fileIndex(target).merged.has(name)) continue;
        out.push({
          pos: { file: rel(file), line: lineOf(d, file) },
          message:
            `${name} in declare module '${st.name.text}' adds to the ${name} of ${rel(target)}, which ` +
            `tsop manifests does not read from here; declare these fields in ` +
            `${posix.basename(rel(target))} (an interface named ${name} there merges with it)`,
        });
      }
    }
  }
  return out;
}
