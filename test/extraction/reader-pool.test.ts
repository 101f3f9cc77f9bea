import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderPool, type ReaderPoolOptions } from '../../lambdas/adapters/extraction/isolation/reader-pool.js';
import { DEFAULT_EXTRACTION_LIMITS } from '../../lambdas/adapters/extraction/limits.js';
import { ExtractionDeferred } from '../../lambdas/core/errors.js';
import type { ExtractedText } from '../../lambdas/core/ports.js';

/**
 * The reader pool's limits, proven with a reader thread that misbehaves on
 * demand (test/support/fault-reader-thread.mjs): every stop is seen from
 * outside the stuck thread, the server's own thread keeps its timers, and
 * the pool goes on reading after each stop.
 */
const FAULTY = new URL('../support/fault-reader-thread.mjs', import.meta.url);
const MiB = 1024 * 1024;
const pools: ReaderPool[] = [];

function pool(
  over: Partial<ReaderPoolOptions> = {},
  limits: Partial<typeof DEFAULT_EXTRACTION_LIMITS> = {},
): ReaderPool {
  const made = new ReaderPool({
    workerUrl: FAULTY,
    mode: 'full',
    limits: { ...DEFAULT_EXTRACTION_LIMITS, cpuBudgetMs: 400, timeBudgetMs: 3_000, maxHeapMb: 64, ...limits },
    threads: { request: 1, background: 2 },
    memoryGrowthBytes: 256 * MiB,
    ...over,
  });
  pools.push(made);
  return made;
}

const read = (filename: string) => ({
  op: 'extract' as const,
  bytes: new Uint8Array([1]),
  declaredContentType: 'text/plain',
  filename,
});
const textOf = async (work: Promise<unknown>) => ((await work) as ExtractedText).text;

/** The longest gap between 10 ms ticks of this thread's timers while `work` runs: how long the server could not answer. */
async function worstTimerGap<T>(work: Promise<T>): Promise<{ gap: number; outcome: PromiseSettledResult<T> }> {
  let gap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  const [outcome] = await Promise.allSettled([work]);
  clearInterval(ticker);
  return { gap, outcome };
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('the reader pool', () => {
  it('stops a read stuck in synchronous code at its processor-time limit, while this thread keeps its timers, and reads on after', async () => {
    const readers = pool();
    const started = performance.now();
    const { gap, outcome } = await worstTimerGap(readers.run('background', read('spin')));
    const took = performance.now() - started;
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toMatchObject({
      rejectCode: 'too_large',
      detail: expect.stringMatching(/more than 0\.4 s of processor time/),
    });
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(2_500);
    expect(gap).toBeLessThan(200);
    expect(await textOf(readers.run('background', read('next')))).toBe('read next');
  });

  it('stops a read at its wall-clock limit where no processor time is counted (the thread sleeps)', async () => {
    const readers = pool();
    await expect(readers.run('background', read('sleep:5000'), { wallLimitMs: 300 })).rejects.toMatchObject({
      rejectCode: 'too_large',
      detail: expect.stringMatching(/more than 0\.3 s \(the extraction time limit\)/),
    });
  });

  it('stops a read whose typed arrays (outside any heap limit) grow the process past its memory limit', async () => {
    const readers = pool({ memoryGrowthBytes: 150 * MiB }, { cpuBudgetMs: 20_000 });
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    await expect(readers.run('background', read('alloc'))).rejects.toMatchObject({
      rejectCode: 'too_large',
      detail: expect.stringMatching(/more memory than the extraction limit/),
    });
    clearInterval(sampler);
    // Caught within a few samples of crossing the limit, not gigabytes later.
    expect(peak - before).toBeLessThan(400 * MiB);
    expect(await textOf(readers.run('background', read('after')))).toBe('read after');
  });

  it('a memory stop beside other reads runs each of them again alone: only the one that needs the memory fails', async () => {
    const readers = pool({ memoryGrowthBytes: 150 * MiB }, { cpuBudgetMs: 20_000 });
    const [bomb, innocent] = await Promise.allSettled([
      readers.run('background', read('alloc')),
      readers.run('background', read('sleep:400')),
    ]);
    expect(bomb.status).toBe('rejected');
    expect((bomb as PromiseRejectedResult).reason).toMatchObject({ rejectCode: 'too_large' });
    expect(innocent).toMatchObject({ status: 'fulfilled', value: { text: 'read sleep:400' } });
  });

  it('a thread over its heap limit dies alone and its read is refused for memory', async () => {
    const readers = pool({}, { cpuBudgetMs: 20_000 });
    await expect(readers.run('background', read('heap'))).rejects.toMatchObject({
      rejectCode: 'too_large',
      detail: expect.stringMatching(/memory/),
    });
    expect(await textOf(readers.run('background', read('after')))).toBe('read after');
  });

  it('a thread that crashes fails its read as extraction_failed and is replaced', async () => {
    const readers = pool();
    await expect(readers.run('background', read('crash'))).rejects.toMatchObject({ rejectCode: 'extraction_failed' });
    expect(await textOf(readers.run('background', read('after')))).toBe('read after');
  });

  it("a request never waits for another caller's read: with every request thread busy it is deferred at once", async () => {
    const readers = pool();
    const busy = readers.run('request', read('sleep:500'));
    const started = performance.now();
    await expect(readers.run('request', read('second'))).rejects.toBeInstanceOf(ExtractionDeferred);
    expect(performance.now() - started).toBeLessThan(50);
    // The queue's threads are not the requests': background reads still run.
    expect(await textOf(readers.run('background', read('queued')))).toBe('read queued');
    expect(await textOf(busy)).toBe('read sleep:500');
  });

  it("a request's signal stops its read at once, and the thread is replaced", async () => {
    const readers = pool();
    const budget = new AbortController();
    const running = readers.run('request', read('spin'), { signal: budget.signal });
    setTimeout(() => budget.abort(new Error('budget over')), 100);
    const started = performance.now();
    await expect(running).rejects.toThrow('budget over');
    expect(performance.now() - started).toBeLessThan(300);
    expect(await textOf(readers.run('request', read('next')))).toBe('read next');
  });

  it('OCR asked for by a reader runs here, with the engine every reader shares', async () => {
    const seen: number[] = [];
    const readers = pool({
      ocr: {
        name: 'test',
        recognize: async (image) => {
          seen.push(image.png.length);
          return { text: 'page words', confidence: 1 };
        },
      },
    });
    expect(await textOf(readers.run('background', read('ocr')))).toBe('page words');
    expect(seen).toEqual([3]);
  });

  it('a thread left holding a large heap after its read is replaced, giving the memory back; a lean one is kept', async () => {
    const readers = pool({ threads: { request: 1, background: 1 } });
    expect(await textOf(readers.run('background', read('lean')))).toBe('read lean');
    expect(readers.state().threads).toBe(1);
    expect(await textOf(readers.run('background', read('bloat')))).toBe('read bloat');
    await sleep(100);
    expect(readers.state().threads).toBe(0);
    expect(await textOf(readers.run('background', read('next')))).toBe('read next');
  });

  it('a thread that cannot start fails its read as backend_unavailable (retryable), not forever', async () => {
    const readers = pool({ workerUrl: new URL('../support/no-such-reader.mjs', import.meta.url) });
    await expect(readers.run('background', read('x'))).rejects.toMatchObject({ name: 'BackendUnavailableError' });
  });
});
