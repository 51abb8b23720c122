/**
 * Where `tsop import crd` reads from: a file, every YAML file of a directory, a URL, or `-` for
 * standard input. The only I/O of the crd path; everything after it works on the text.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';

export interface InputText {
  /** How problems name it: the path, the URL, or `stdin`. */
  name: string;
  text: string;
}

export async function readInputs(arg: string, stdin: () => Promise<string> = readStdin): Promise<InputText[]> {
  if (arg === '-') return [{ name: 'stdin', text: await stdin() }];
  if (/^https?:\/\//i.test(arg)) return [await download(arg)];
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(arg);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new UserError(
        `import crd: ${arg}: no such file or directory; pass a CRD file, a directory of them, a URL or - for standard input`,
      );
    throw new UserError(`import crd: cannot read ${arg} (${code ?? String(error)}); check its permissions`);
  }
  if (!info.isDirectory()) return [{ name: arg, text: await readText(arg) }];
  const names = (await readdir(arg)).filter((n) => /\.ya?ml$/.test(n)).sort();
  if (names.length === 0)
    throw new UserError(
      `import crd: ${arg} is a directory with no .yaml or .yml files; pass a CRD file or a directory of them`,
    );
  return Promise.all(names.map(async (n) => ({ name: join(arg, n), text: await readText(join(arg, n)) })));
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UserError(
      `import crd: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); check its permissions`,
    );
  }
}

async function download(url: string): Promise<InputText> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new UserError(
      `import crd: cannot download ${url} ` +
        `(${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}); ` +
        `check the URL and the network, or download the file and pass its path`,
    );
  }
  if (!response.ok) throw new UserError(`import crd: downloading ${url} gave HTTP ${response.status}; check the URL`);
  return { name: url, text: await response.text() };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
