import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedExtractor } from '../../lambdas/adapters/extraction/isolation/isolated-extractor.js';
import { CaptureRejected } from '../../lambdas/core/errors.js';
import { type HostileFile, hostileFiles } from '../support/hostile-files.js';
import { RecordingOcr } from './fake-ocr.js';

/**
 * Every file of the hostile corpus, read by the extractor both stacks use
 * (reader threads under their limits): each ends in its text or a reject
 * with a contract code, within the limits, while this thread (the server's)
 * keeps its timers and the process stays within its memory bound.
 */
const MiB = 1024 * 1024;
const LIMITS = { cpuBudgetMs: 8_000, timeBudgetMs: 15_000 };
const MEMORY_GROWTH = 512 * MiB;

let corpus: HostileFile[];
const extractor = new IsolatedExtractor({
  mode: 'full',
  ocr: new RecordingOcr(),
  limits: LIMITS,
  memoryGrowthBytes: MEMORY_GROWTH,
  threads: { request: 1, background: 1 },
});

beforeAll(async () => {
  corpus = await hostileFiles();
}, 120_000);
afterAll(() => extractor.close());

describe('the hostile corpus', () => {
  it('each file ends in its text or a reject naming why, within the limits, never stalling this thread or outgrowing the memory bound', async () => {
    for (const file of corpus) {
      const baseline = process.memoryUsage.rss();
      let peak = baseline;
      let gap = 0;
      let last = performance.now();
      const ticker = setInterval(() => {
        const now = performance.now();
        gap = Math.max(gap, now - last);
        last = now;
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 10);
      const started = performance.now();
      let outcome: string;
      let detail = '';
      try {
        const read = await extractor.extract({
          bytes: file.bytes,
          declaredContentType: file.contentType,
          filename: file.filename,
        });
        outcome = read.text.trim() ? 'ok' : 'empty_content';
      } catch (error) {
        expect(error, file.name).toBeInstanceOf(CaptureRejected);
        outcome = (error as CaptureRejected).rejectCode;
        detail = (error as CaptureRejected).detail;
      } finally {
        clearInterval(ticker);
      }
      const took = performance.now() - started;
      expect(file.outcomes, `${file.name}: ${outcome} ${detail}`).toContain(outcome);
      if (outcome === 'too_large') expect(detail, file.name).toMatch(/limit|at most|more than|bomb|pages/);
      expect(took, file.name).toBeLessThan(LIMITS.timeBudgetMs + 6_000);
      expect(gap, `${file.name}: this thread stalled`).toBeLessThan(250);
      expect(peak - baseline, `${file.name}: memory`).toBeLessThan(MEMORY_GROWTH + 256 * MiB);
    }
  }, 600_000);
});
