import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * @library/client as a user gets it: `npm pack` of client/ (its prepack builds both formats),
 * installed from the tarball into a fresh ESM project and a fresh CommonJS project, each of
 * which runs a script against the real local server and type-checks a TypeScript file with
 * strict tsc in that project's own module mode (nodenext / node16). The projects live in the
 * OS temp folder, so nothing resolves from the repository's node_modules by accident.
 *
 * No network: the client has no runtime dependencies, so `npm install --offline` with an empty
 * cache of its own needs only the tarball (and fails rather than fetch if that ever changes).
 * tsc and @types/node come from the repository's node_modules (`npm ci` installed them).
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const clientDir = join(repoRoot, 'client');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const run = promisify(execFile);

let server: TestServer;
let key: string;
let work: string;
let tarball: string;
let packed: string[];

type Format = 'esm' | 'cjs';
const project = (format: Format) => join(work, format);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'library-client-package-'));
  // Packed from a copy, so the test neither needs nor rewrites client/dist of the checkout;
  // the copy's node_modules is the repository's, where the client's build finds tsc and @types/node.
  const copy = join(work, 'client');
  cpSync(clientDir, copy, {
    recursive: true,
    filter: (path) => !['dist', 'node_modules'].includes(relative(clientDir, path)),
  });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'junction');
  const [started, pack] = await Promise.all([
    startTestServer({ embedder: new HashingEmbedder() }),
    run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy }),
  ]);
  server = started;
  key = await server.newKey('client-package');
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info!.filename);
  packed = info!.files.map((file) => file.path).sort();
  await Promise.all((['esm', 'cjs'] as const).map(setUp));
});
afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh project of one format with the tarball installed, a script that runs it and a file that type-checks it. */
async function setUp(format: Format) {
  const dir = project(format);
  mkdirSync(dir);
  // `npm init -y` writes no "type": CommonJS is what a project gets by default.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: `${format}-app`,
      version: '1.0.0',
      private: true,
      ...(format === 'esm' ? { type: 'module' } : {}),
    }),
  );
  const install = await run(
    'npm',
    ['install', '--offline', '--cache', join(work, `npm-cache-${format}`), '--no-audit', '--no-fund', tarball],
    { cwd: dir },
  );
  // A consumer's install runs nothing of ours, so npm has no install script to warn about.
  expect(install.stderr).not.toMatch(/install script/i);
  writeFileSync(join(dir, `note-${format}.txt`), `The ${format} harbour opens at dawn.\n`);
  writeFileSync(join(dir, format === 'esm' ? 'main.mjs' : 'main.cjs'), script(format));
  writeFileSync(join(dir, 'check.ts'), CHECK);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: format === 'esm' ? 'nodenext' : 'node16',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        // The package's declarations are checked too (no skipLibCheck), against Node's types alone (no DOM).
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules/@types')],
      },
      files: ['check.ts'],
    }),
  );
}

/** The same calls from each format: the node entry (captureFile reads a path), the main entry, api-types. */
function script(format: Format): string {
  const load =
    format === 'esm'
      ? `import { Library } from '@library/client/node';
import { Library as BrowserLibrary, LibraryError } from '@library/client';
import * as apiTypes from '@library/client/api-types';
const loaded = import.meta.resolve('@library/client');`
      : `const { Library } = require('@library/client/node');
const { Library: BrowserLibrary, LibraryError } = require('@library/client');
const apiTypes = require('@library/client/api-types');
const loaded = require.resolve('@library/client');`;
  const body = `async function main() {
  const lib = new Library({ baseUrl: process.env.LIBRARY_URL, apiKey: process.env.LIBRARY_API_KEY, retries: 0 });
  const receipt = await lib.captureFile('note-${format}.txt');
  const doc = await lib.documents.get(receipt.id);
  let error;
  try {
    await new BrowserLibrary({ baseUrl: process.env.LIBRARY_URL, apiKey: 'not-a-key', retries: 0 }).documents.list();
  } catch (e) {
    error = { isLibraryError: e instanceof LibraryError, status: e.status, code: e.code };
  }
  return { loaded, status: receipt.status, sameDocument: doc.id === receipt.id, title: doc.title, error, apiTypes: Object.keys(apiTypes) };
}`;
  return format === 'esm'
    ? `${load}\n${body}\nconsole.log(JSON.stringify(await main()));\n`
    : `${load}\n${body}\nmain().then((result) => console.log(JSON.stringify(result)), (e) => { console.error(e); process.exitCode = 1; });\n`;
}

/** Compiles in either mode; resolving the ESM types from CommonJS (or the reverse) would be an error here. */
const CHECK = `import { Library, LibraryError, type Filter, type Receipt } from '@library/client';
import { Library as NodeLibrary } from '@library/client/node';
import type { paths } from '@library/client/api-types';

const lib = new NodeLibrary({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'key' });
const filter: Filter = { 'metadata.year': { gte: 2024 }, not: { 'metadata.tags': 'draft' } };
// @ts-expect-error not a filter operator
const wrong: Filter = { 'metadata.year': { between: [1, 2] } };
type Health = paths['/v1/health']['get']['responses'][200]['content']['application/json'];

export async function capture(path: string): Promise<Receipt | string> {
  try {
    const status: Health['status'] = (await new Library({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'key' }).health()).status;
    return status === 'ok' ? await lib.captureFile(path, { metadata: { year: 2026 } }) : status;
  } catch (e) {
    return e instanceof LibraryError ? e.code : 'unknown';
  }
}
void filter; void wrong;
`;

describe('the packed @library/client', () => {
  it('holds both builds, the README and package.json, and nothing else', () => {
    const modules = readdirSync(join(clientDir, 'src'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -'.ts'.length));
    const built = (folder: string) =>
      modules.flatMap((name) => ['.js', '.js.map', '.d.ts'].map((ext) => `${folder}/${name}${ext}`));
    expect(packed).toEqual(
      [...built('dist'), ...built('dist/cjs'), 'dist/cjs/package.json', 'README.md', 'package.json'].sort(),
    );
  });

  for (const format of ['esm', 'cjs'] as const) {
    it(`runs in a fresh ${format === 'esm' ? 'ESM' : 'CommonJS'} project against the local server`, async () => {
      const { stdout } = await run(process.execPath, [format === 'esm' ? 'main.mjs' : 'main.cjs'], {
        cwd: project(format),
        env: { ...process.env, LIBRARY_URL: server.url, LIBRARY_API_KEY: key },
      });
      const result = JSON.parse(stdout);
      // Each format loads its own build: ESM from dist/, CommonJS from dist/cjs/.
      expect(result.loaded).toMatch(format === 'esm' ? /\/dist\/index\.js$/ : /\/dist\/cjs\/index\.js$/);
      expect(result).toMatchObject({ status: 'created', sameDocument: true, title: `note-${format}.txt` });
      expect(result.error).toEqual({ isLibraryError: true, status: 401, code: 'unauthorized' });
      expect(result.apiTypes).toEqual([]);
    });

    it(`type-checks with strict tsc in a ${format === 'esm' ? 'nodenext ESM' : 'node16 CommonJS'} project`, async () => {
      const checked = await run(process.execPath, [tsc, '-p', '.', '--listFiles'], { cwd: project(format) }).catch(
        (e: { stdout: string }) => {
          throw new Error(
            `tsc failed in the ${format} project:\n${e.stdout
              .split('\n')
              .filter((line) => line.includes('error TS'))
              .join('\n')}`,
          );
        },
      );
      // TypeScript read the declarations of the build that Node runs in this mode, and only those.
      const ours = checked.stdout
        .split('\n')
        .filter((file) => file.includes('/@library/client/'))
        .map((file) => file.slice(file.indexOf('/@library/client/') + '/@library/client/'.length));
      expect(ours).toContain(format === 'esm' ? 'dist/index.d.ts' : 'dist/cjs/index.d.ts');
      expect(ours.every((file) => file.startsWith('dist/cjs/') === (format === 'cjs'))).toBe(true);
    });
  }
});
