/**
 * `npm run bench:bundles`: bundles every Lambda function with esbuild exactly
 * as the CDK stack does (lib/bundling.ts), prints each bundle's size and its
 * module init time (the bundle imported in a fresh node process, median of
 * five, with --enable-source-maps as deployed, and without), and checks the goals: at most 1 MB per function (the ingest
 * function excepted) and init at most 150 ms; and that no native module or
 * local model entered an API bundle.
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_SETTINGS } from '../lib/bundling.js';
import { type FunctionSpec, functionSpecs, INGEST_NODE_MODULES, PROJECT_ROOT } from '../lib/functions.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';

const SIZE_GOAL = 1024 * 1024;
const INIT_GOAL_MS = 150;
/** Fresh processes per measurement: the median of five resists the spikes of a shared machine better than of three. */
const RUNS = 5;
/** Never in a Lambda bundle: native SQLite, the local OCR and the local embedding model. */
const FORBIDDEN = [
  /node_modules\/better-sqlite3\//,
  /node_modules\/sqlite-vec/,
  /node_modules\/tesseract\.js/,
  /node_modules\/@energetic-ai\//,
  /node_modules\/sharp\//,
  /node_modules\/@napi-rs\//,
];

/** What the stack sets on every function, with made-up values: init must not call anything. */
const FAKE_ENV = {
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIABENCHMARK',
  AWS_SECRET_ACCESS_KEY: 'benchmark',
  LIBRARY_VERSION: 'bench',
  LIBRARY_TENANTS_TABLE: 'tenants',
  LIBRARY_DOCUMENTS_TABLE: 'documents',
  LIBRARY_USAGE_TABLE: 'usage',
  LIBRARY_BLOB_BUCKET: 'blobs',
  LIBRARY_SEARCH_ENDPOINT: 'https://search.example.invalid',
  LIBRARY_SEARCH_INDEX_PREFIX: 'library',
  LIBRARY_EMBEDDING_MODEL_ID: 'amazon.titan-embed-text-v2:0',
  LIBRARY_EMBEDDING_DIMENSIONS: '1024',
  LIBRARY_CHAT_MODEL_ID: 'anthropic.claude-3-5-haiku-20241022-v1:0',
  LIBRARY_INGEST_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/000000000000/ingest',
  LIBRARY_INLINE_MAX_BYTES: '1048576',
  LIBRARY_INGEST_MAX_RECEIVE_COUNT: '3',
  LIBRARY_INGEST_CONCURRENCY: '4',
  LIBRARY_STALE_AFTER_SECONDS: '14400',
  LIBRARY_BUCKETS_TABLE: 'buckets',
  LIBRARY_BUCKET_ACCESS_ROLE_ARN: 'arn:aws:iam::000000000000:role/bench-caller-buckets',
  LIBRARY_BUCKET_SECRETS_KEY_ARN: 'arn:aws:kms:eu-west-1:000000000000:key/00000000-0000-0000-0000-000000000000',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_TRACE_ENABLED: 'false',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

// Inside the project, so the ingest bundle resolves its node_modules as on Lambda.
const OUT = join(PROJECT_ROOT, '.cache', 'bundles');

async function bundle(spec: FunctionSpec) {
  const outfile = join(OUT, spec.name, 'index.mjs');
  const external = [...BUNDLE_SETTINGS.externalModules, ...(spec.kind === 'ingest' ? INGEST_NODE_MODULES : [])];
  const result = await build({
    entryPoints: [spec.entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_SETTINGS.target,
    minify: BUNDLE_SETTINGS.minify,
    // 'linked' writes the //# sourceMappingURL comment, as NodejsFunction's sourceMap: true does
    // (esbuild --sourcemap): without it --enable-source-maps never reads the map and init looks cheaper.
    sourcemap: BUNDLE_SETTINGS.sourceMap ? 'linked' : false,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    charset: BUNDLE_SETTINGS.charset,
    banner: { js: BUNDLE_SETTINGS.banner },
    external,
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const forbidden = inputs.filter((file) => FORBIDDEN.some((pattern) => pattern.test(file)));
  return { outfile, bytes: statSync(outfile).size, forbidden, external };
}

/** Median module init of RUNS fresh processes; throws with the module's own error when it cannot start. */
function initMs(outfile: string, sourceMaps: boolean): number {
  const script = `try { const t = performance.now(); await import(${JSON.stringify(pathToFileURL(outfile).href)}); process.stdout.write(String(performance.now() - t)); } catch (e) { process.stderr.write(String(e?.message ?? e)); process.exit(1); }`;
  const runs = Array.from({ length: RUNS }, () => {
    try {
      return Number(
        execFileSync(
          process.execPath,
          [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', script],
          { env: { ...process.env, ...FAKE_ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
        ),
      );
    } catch (error) {
      throw new Error(
        `the bundle does not start: ${String((error as { stderr?: string }).stderr ?? error).slice(0, 300)}`,
      );
    }
  });
  return percentile(runs, 50);
}

async function main() {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const rows: string[] = [];
  const problems: string[] = [];
  rows.push(`${'function'.padEnd(18)} ${'bundle'.padStart(10)} ${'init'.padStart(9)}  notes`);
  for (const spec of functionSpecs()) {
    const result = await bundle(spec);
    let ms: number;
    let bare: number;
    try {
      // As deployed: NODE_OPTIONS=--enable-source-maps (lib/constructs/library-function.ts).
      ms = initMs(result.outfile, true);
      bare = initMs(result.outfile, false);
    } catch (error) {
      problems.push(`${spec.name}: ${(error as Error).message}`);
      rows.push(`${spec.name.padEnd(18)} ${(result.bytes / 1024).toFixed(0).padStart(7)} KB ${'fails'.padStart(9)}`);
      continue;
    }
    const notes: string[] = [`${bare.toFixed(0)} ms without source maps`];
    if (spec.kind === 'ingest') notes.push(`+ node_modules: ${INGEST_NODE_MODULES.join(', ')} (size goal excepted)`);
    if (spec.kind !== 'ingest' && result.bytes > SIZE_GOAL) problems.push(`${spec.name}: ${result.bytes} bytes > 1 MB`);
    if (ms > INIT_GOAL_MS) problems.push(`${spec.name}: init ${ms.toFixed(0)} ms > ${INIT_GOAL_MS} ms`);
    if (result.forbidden.length) problems.push(`${spec.name}: bundles ${result.forbidden.join(', ')}`);
    rows.push(
      `${spec.name.padEnd(18)} ${(result.bytes / 1024).toFixed(0).padStart(7)} KB ${ms.toFixed(0).padStart(6)} ms  ${notes.join('; ')}`,
    );
  }
  console.log(rows.join('\n'));
  console.log(
    `\ngoals: bundle <= 1024 KB (ingest excepted), init <= ${INIT_GOAL_MS} ms (median of ${RUNS}, fresh node ${process.version} process, --enable-source-maps as deployed)`,
  );
  console.log(machineLine());
  if (problems.length) {
    console.log(`not met:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('all goals met');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
