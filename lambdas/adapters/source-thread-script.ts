import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = new Map<string, Promise<URL>>();

/**
 * A worker thread's script when the service runs from its TypeScript
 * sources (npm start, the tests): the thread's own modules bundled by
 * esbuild into one file (about 100 ms, once per process and entry), the
 * packages left to Node. A thread then starts in plain JavaScript:
 * compiling on the fly in every new thread (tsx) costs seconds for pdf.js
 * alone. The file lies in `.build/` beside the entry, so the packages
 * resolve from the project's node_modules; it is rewritten only when its
 * text changes, atomically, as several processes may build it at once.
 */
export function sourceThreadScript(entry: URL): Promise<URL> {
  let script = built.get(entry.href);
  if (!script) {
    script = bundle(entry);
    built.set(entry.href, script);
    script.catch(() => built.delete(entry.href)); // a failed build is tried again by the next thread
  }
  return script;
}

async function bundle(entry: URL): Promise<URL> {
  // Loaded here, not with the module: the AWS functions ship their bundles and never build one (lib/bundling.ts keeps esbuild out of them).
  const { build } = await import('esbuild');
  const entryFile = fileURLToPath(entry);
  const result = await build({
    entryPoints: [entryFile],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]!.text;
  const folder = fileURLToPath(new URL('./.build/', entry));
  const file = `${folder}${basename(entryFile).replace(/\.ts$/, '.mjs')}`;
  if (readIfAny(file) !== text) {
    mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return pathToFileURL(file);
}

function readIfAny(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
