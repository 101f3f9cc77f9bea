import { execSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedExtractor } from '../../../lambdas/adapters/extraction/isolation/isolated-extractor.js';
import { ENV } from '../../../lambdas/wiring/aws/config.js';
import { MEMORY_SHARE, readerSettings } from '../../../lambdas/wiring/aws/extractors.js';
import { extraBundleCommand } from '../../../lib/bundling.js';
import { functionSpecs, INGEST_NODE_MODULES, PROJECT_ROOT, readerThreadOf } from '../../../lib/functions.js';
import { RecordingOcr } from '../../extraction/fake-ocr.js';
import { type HostileFile, hostileFiles } from '../../support/hostile-files.js';

/**
 * The reader threads the AWS functions ship: bundled by the very command the
 * stack runs after esbuild (lib/bundling.ts extraBundleCommand), then given
 * hostile files with the limits a function sets. A hostile file costs one
 * bounded read there too.
 */
const OUT = join(PROJECT_ROOT, '.cache', 'reader-thread-test');
let corpus: HostileFile[];

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const spec of functionSpecs()) {
    const reader = readerThreadOf(spec);
    if (!reader) continue;
    const outfile = join(OUT, reader.file);
    const installed = spec.kind === 'ingest' ? INGEST_NODE_MODULES : [];
    execSync(
      extraBundleCommand({
        esbuild: join(PROJECT_ROOT, 'node_modules', '.bin', 'esbuild'),
        entry: reader.entry,
        outfile,
        installed,
      }),
      { cwd: PROJECT_ROOT, stdio: 'pipe' },
    );
  }
  corpus = await hostileFiles();
}, 180_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe("the AWS functions' reader threads", () => {
  it('only the capture routes (text formats) and the ingest worker (every format) read files, each told its own bundle', () => {
    const readers = Object.fromEntries(functionSpecs().map((spec) => [spec.name, readerThreadOf(spec)?.file ?? null]));
    expect(Object.entries(readers).filter(([, file]) => file)).toEqual([
      ['capture', 'text-thread.mjs'],
      ['capture-batch', 'text-thread.mjs'],
      ['ingest', 'full-thread.mjs'],
    ]);
  });

  it('a function reads with the bundle beside its own and holds at most 85% of its memory while reading', () => {
    const settings = readerSettings(
      { [ENV.readerThread]: 'text-thread.mjs', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' },
      'file:///var/task/index.mjs',
    );
    expect(settings.workerUrl?.href).toBe('file:///var/task/text-thread.mjs');
    expect(settings.memoryCeilingBytes).toBe(Math.floor(1024 * MEMORY_SHARE * 1024 * 1024));
    expect(readerSettings({}).workerUrl).toBeUndefined();
    expect(() => readerSettings({ [ENV.readerThread]: '../../etc/passwd' })).toThrow(/file name ending \.mjs/);
  });

  it.each([
    [
      'text',
      'text-thread.mjs',
      ['29 empty comments', '200,000 nested divs', 'JSON nested 1,000,000', 'UTF-16 with lone'],
    ],
    [
      'full',
      'full-thread.mjs',
      [
        'DOCX with a 300 MiB part',
        'PDF whose content stream inflates to 768 MiB of spaces',
        'PNG announcing 60,000',
        '200,000 nested divs',
      ],
    ],
  ] as const)(
    "the %s bundle, under a 1 GiB function's limits, ends each hostile read with its text or a reject naming the limit",
    async (mode, file, names) => {
      const settings = readerSettings({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' });
      const extractor = new IsolatedExtractor({
        mode,
        ocr: new RecordingOcr(),
        threads: { request: 1, background: 1 },
        limits: { cpuBudgetMs: 10_000, timeBudgetMs: 20_000 },
        workerUrl: pathToFileURL(join(OUT, file)),
        // The process here already holds the test runner: a ceiling above what it holds now, growth as on Lambda.
        memoryGrowthBytes: settings.memoryGrowthBytes,
        memoryCeilingBytes: process.memoryUsage.rss() + settings.memoryCeilingBytes!,
      });
      try {
        for (const name of names) {
          const hostile = corpus.find((f) => f.name.startsWith(name))!;
          const started = performance.now();
          const outcome = await extractor
            .extract({ bytes: hostile.bytes, declaredContentType: hostile.contentType, filename: hostile.filename })
            .then(
              (read) => (read.text.trim() ? 'ok' : 'empty_content'),
              (error: { rejectCode?: string }) => error.rejectCode ?? String(error),
            );
          // The text bundle refuses what only the full pipeline reads; the capture function queues those before it asks.
          const allowed = mode === 'text' ? [...hostile.outcomes, 'unsupported_type'] : hostile.outcomes;
          expect(allowed, `${hostile.name}: ${outcome}`).toContain(outcome);
          expect(performance.now() - started, hostile.name).toBeLessThan(30_000);
        }
      } finally {
        await extractor.close();
      }
    },
    300_000,
  );
});
