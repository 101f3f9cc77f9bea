#!/usr/bin/env node
// Builds the web console (console/src, React + Mantine) into console/dist with esbuild: ES modules
// split into chunks (the charting library loads only on the pages that draw), one stylesheet, and
// manifest.json naming the entry script and stylesheet the page links (lambdas/endpoints/console).
// File names carry their content hash, so the service can let browsers keep them for good.
// Run by scripts/ensure-installed.mjs before `npm start` and `npm test`, and by the CDK stack at synth.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_DIST = join(ROOT, 'console', 'dist');

/** Builds the console into `outdir` (default console/dist) and returns its manifest. */
export function buildConsole(outdir = CONSOLE_DIST) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = buildSync({
    absWorkingDir: ROOT,
    entryPoints: ['console/src/main.tsx'],
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    outdir,
    entryNames: 'app-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: 'asset-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, output]) => output.entryPoint === 'console/src/main.tsx');
  if (!entry) throw new Error('the console build produced no entry script');
  // The service serves these types only, as text (lambdas/endpoints/console/build.ts): anything else
  // the build emits (a font or an image a stylesheet pulled in) must fail here, not 404 in a browser.
  const unserved = readdirSync(outdir).filter((name) => !/\.(js|css|txt)$/.test(name));
  if (unserved.length)
    throw new Error(`the console build wrote files the service does not serve: ${unserved.join(', ')}`);
  const manifest = {
    script: basename(entry[0]),
    stylesheet: entry[1].cssBundle ? basename(entry[1].cssBundle) : null,
    files: readdirSync(outdir).sort(),
  };
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const manifest = buildConsole();
  console.error(`console built into console/dist in ${Date.now() - started} ms (${manifest.files.length} files)`);
}
