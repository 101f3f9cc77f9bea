import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ReaderMode } from './protocol.js';

const built = new Map<ReaderMode, Promise<URL>>();

/**
 * The reader thread's script when the service runs from its TypeScript
 * sources (npm start, the tests): the thread's own modules bundled by
 * esbuild into one file (about 100 ms, once per process), the packages left
 * to Node. A thread then starts in plain JavaScript: compiling on the fly
 * in every new thread (tsx) costs seconds for pdf.js alone. The file lies in
 * `.build/` beside the sources, so the packages resolve from the project's
 * node_modules; it is rewritten only when its text changes, atomically, as
 * several processes may build it at once. The AWS functions ship the same
 * bundle, built at synth (lib/functions.ts).
 */
export function sourceReaderThread(mode: ReaderMode): Promise<URL> {
  let script = built.get(mode);
  if (!script) {
    script = bundle(mode);
    built.set(mode, script);
    script.catch(() => built.delete(mode)); // a failed build is tried again by the next thread
  }
  return script;
}

async function bundle(mode: ReaderMode): Promise<URL> {
  // Loaded here, not with the module: the AWS functions ship their bundle and never build one (lib/bundling.ts keeps esbuild out of them).
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./${mode}-thread.ts`, import.meta.url))],
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
  const folder = fileURLToPath(new URL('./.build/', import.meta.url));
  const file = `${folder}${mode}-thread.mjs`;
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
