import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbedderPool, type EmbedderPoolOptions } from '../../lambdas/adapters/local/embedder-pool.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';

const FAULT_WORKER = new URL('../support/fault-embed-worker.mjs', import.meta.url);

// Indices of the fault worker's stats side channel (test/support/fault-embed-worker.mjs).
const STARTS = 0;
const CALLS = 1;
const TEXTS = 2;
const MAX_BATCH = 3;
const MAX_IN_FLIGHT = 5;
const QUERY_ROLE_CALLS = 6;
const PASSAGE_ROLE_CALLS = 7;

/** The fault worker's embedding, computed here independently. */
function reference(text: string): Float32Array {
  const v = new Float32Array(16);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash('md5').update(word).digest();
    v[h.readUInt16LE(0) % 16]! += h[2]! & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

const pools: EmbedderPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

async function faultPool(options: EmbedderPoolOptions & { data?: Record<string, unknown> } = {}) {
  const stats = new Int32Array(new SharedArrayBuffer(8 * 4));
  const { data, ...rest } = options;
  const pool = await EmbedderPool.start({
    workerUrl: FAULT_WORKER,
    restartDelayMs: 20,
    callTimeoutMs: 2000,
    ...rest,
    workerData: { stats: stats.buffer, ...data },
  });
  pools.push(pool);
  return { pool, stats };
}

async function waitFor(condition: () => boolean, ms = 3000) {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const texts = (n: number, prefix = 'passage') =>
  Array.from({ length: n }, (_, i) => `${prefix} number ${i} word${i} w${i * 7}`);

describe('EmbedderPool with a fault-injecting worker', () => {
  it('returns vectors in input order across sub-batches and workers', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 2, maxBatch: 3, data: { delayMs: { passage: 2 } } });
    expect(pool.name).toBe('fault-test-embedder');
    expect(pool.dimensions).toBe(16);
    const input = texts(50);
    const { vectors, tokens } = await pool.embed(input, 'passage');
    expect(vectors).toHaveLength(50);
    vectors.forEach((vector, i) => expect(Array.from(vector)).toEqual(Array.from(reference(input[i]!))));
    expect(tokens).toBe(50 * 5); // the worker's count (5 words a text), summed over its sub-batches
    expect(stats[CALLS]).toBe(17); // ceil(50 / 3)
    expect(stats[MAX_BATCH]).toBe(3);
    expect(stats[MAX_IN_FLIGHT]).toBe(2); // both passage workers ran at once
    expect(stats[QUERY_ROLE_CALLS]).toBe(0);
    expect(pool.isIdle()).toBe(true);
  });

  it('never hands a worker more than maxBatch texts, whatever the call size', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 2 });
    const [{ vectors: big }, { vectors: other }] = await Promise.all([
      pool.embed(texts(1000), 'passage'),
      pool.embed(texts(5, 'other'), 'passage'),
    ]);
    expect(big).toHaveLength(1000);
    expect(Array.from(other[4]!)).toEqual(Array.from(reference(texts(5, 'other')[4]!)));
    expect(stats[MAX_BATCH]).toBe(4); // the default maxBatch
    expect(stats[TEXTS]).toBe(1005);
    expect(stats[CALLS]).toBe(250 + 2);
  });

  it('answers queries while the passage workers are busy', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 2, data: { delayMs: { passage: 20 } } });
    let passagesDone = false;
    const passages = pool.embed(texts(48), 'passage').then((v) => ((passagesDone = true), v.vectors)); // 6 x 160 ms over 2 workers
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(pool.isIdle()).toBe(false);
    const started = Date.now();
    const {
      vectors: [query],
    } = await pool.embed(['what is the answer'], 'query');
    expect(Date.now() - started).toBeLessThan(100);
    expect(Array.from(query!)).toEqual(Array.from(reference('what is the answer')));
    expect(passagesDone).toBe(false);
    expect(stats[QUERY_ROLE_CALLS]).toBe(1);
    expect(await passages).toHaveLength(48);
    expect(pool.isIdle()).toBe(true);
  });

  it('restarts a worker that exits; health goes degraded, then ok', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 1, restartDelayMs: 100 });
    expect(pool.health()).toEqual({ state: 'ok', detail: null, restarts: 0, workers: { live: 2, total: 2 } });
    const failure = await pool.embed(['one', 'EXIT_WORKER'], 'passage').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect((failure as Error).message).toMatch(/exited with code 1/);
    const degraded = pool.health();
    expect(degraded.state).toBe('degraded');
    expect(degraded.detail).toBe('embedding worker restarting after: the worker exited with code 1');
    expect(degraded.workers).toEqual({ live: 1, total: 2 });
    // A passage call made while the worker is down waits for the replacement.
    const waiting = pool.embed(['after the restart'], 'passage');
    await waitFor(() => pool.health().state === 'ok');
    expect(pool.health().restarts).toBe(1);
    expect(Array.from((await waiting).vectors[0]!)).toEqual(Array.from(reference('after the restart')));
    expect(stats[STARTS]).toBe(3);
  });

  it('sends queries to a passage worker while the query worker is down', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 1, restartDelayMs: 1000 });
    await expect(pool.embed(['EXIT_WORKER'], 'query')).rejects.toBeInstanceOf(BackendUnavailableError);
    const {
      vectors: [vector],
    } = await pool.embed(['a search'], 'query');
    expect(Array.from(vector!)).toEqual(Array.from(reference('a search')));
    expect(stats[QUERY_ROLE_CALLS]).toBe(1); // only the call that killed it
    expect(stats[PASSAGE_ROLE_CALLS]).toBe(1);
    expect(pool.health().workers.live).toBe(1);
  });

  it("restarts a worker whose runtime broke ('memory access out of bounds')", async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 1, restartDelayMs: 100 });
    const failure = await pool.embed(['WASM_BROKEN'], 'passage').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect((failure as Error).message).toMatch(/memory access out of bounds/);
    expect(pool.health().detail).toBe('embedding worker restarting after: RuntimeError: memory access out of bounds');
    await waitFor(() => pool.health().state === 'ok');
    expect(stats[STARTS]).toBe(3);
    expect((await pool.embed(['fine again'], 'passage')).vectors).toHaveLength(1);
  });

  it('an ordinary error rejects only that call and keeps the worker', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 1, maxBatch: 2 });
    const bad = pool.embed(['fine', 'BAD_TEXT', 'never sent', 'nor this'], 'passage');
    const good = pool.embed(['another capture'], 'passage');
    const failure = await bad.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect((failure as Error).message).toBe('embedding failed: bad input');
    expect(Array.from((await good).vectors[0]!)).toEqual(Array.from(reference('another capture')));
    expect(stats[CALLS]).toBe(2); // the failed call's second sub-batch was dropped
    expect(stats[STARTS]).toBe(2);
    expect(pool.health()).toEqual({ state: 'ok', detail: null, restarts: 0, workers: { live: 2, total: 2 } });
  });

  it('times out a hanging call and replaces its worker', async () => {
    const { pool } = await faultPool({ passageWorkers: 1, callTimeoutMs: 300 });
    const started = Date.now();
    const failure = await pool.embed(['HANG'], 'passage').catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect((failure as Error).message).toMatch(/took longer than 300 ms/);
    await waitFor(() => pool.health().state === 'ok');
    expect(pool.health().restarts).toBe(1);
    expect((await pool.embed(['next'], 'passage')).vectors).toHaveLength(1);
  });

  it('a worker that never recovers leaves health degraded and calls reject instead of hanging', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 1, callTimeoutMs: 500, data: { failAfterStart: true } });
    for (let i = 0; i < 4; i++) {
      await expect(pool.embed([`query ${i}`], 'query')).rejects.toBeInstanceOf(BackendUnavailableError);
    }
    const health = pool.health();
    expect(health.state).toBe('degraded');
    expect(health.detail).toMatch(/the last 4 embedding calls failed, the latest with: .*RuntimeError: unreachable/);
    expect(health.restarts).toBeGreaterThanOrEqual(2);
    expect(stats[STARTS]).toBeGreaterThanOrEqual(4);
  });

  it('a replacement that never starts: queued calls reject after callTimeoutMs', async () => {
    const { pool, stats } = await faultPool({ passageWorkers: 1, callTimeoutMs: 400, data: { failStartsAfter: 2 } });
    await expect(pool.embed(['EXIT_WORKER'], 'passage')).rejects.toBeInstanceOf(BackendUnavailableError);
    const started = Date.now();
    const failure = await pool.embed(['waits for a worker'], 'passage').catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect((failure as Error).message).toMatch(
      /no embedding worker came back within 400 ms \(the fault worker refuses to start\)/,
    );
    expect(pool.health()).toMatchObject({ state: 'degraded', workers: { live: 1, total: 2 } });
    expect(pool.health().detail).toMatch(/restarting after: the fault worker refuses to start/);
    expect(stats[STARTS]).toBeGreaterThanOrEqual(3);
    // Queries still have the query worker.
    expect((await pool.embed(['still searchable'], 'query')).vectors).toHaveLength(1);
  });

  it('close() rejects pending and queued calls, and later calls', async () => {
    const { pool } = await faultPool({ passageWorkers: 1 });
    const hanging = pool.embed(['HANG'], 'passage').catch((e: unknown) => e);
    const queued = pool.embed(['behind it'], 'passage').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.isIdle()).toBe(false);
    await pool.close();
    for (const failure of [await hanging, await queued]) {
      expect(failure).toBeInstanceOf(BackendUnavailableError);
      expect((failure as Error).message).toBe('the embedder was closed');
    }
    await expect(pool.embed(['x'], 'query')).rejects.toThrow('the embedder was closed');
    expect(pool.health()).toMatchObject({ state: 'degraded', workers: { live: 0 } });
  });

  it('does not keep the process alive: a script exits on its own after calls, a restart and close()', async () => {
    const poolUrl = new URL('../../lambdas/adapters/local/embedder-pool.ts', import.meta.url).href;
    const script = `
      import { EmbedderPool } from ${JSON.stringify(poolUrl)};
      const workerUrl = new URL(${JSON.stringify(FAULT_WORKER.href)});
      const idle = await EmbedderPool.start({ workerUrl, restartDelayMs: 50 });
      console.log('vectors', (await idle.embed(['a b', 'c'], 'passage')).vectors.length);
      console.log('failed', await idle.embed(['EXIT_WORKER'], 'passage').catch((e) => e.name));
      const closing = await EmbedderPool.start({ workerUrl });
      const hanging = closing.embed(['HANG'], 'passage').catch((e) => e.message);
      await closing.close();
      console.log('closed', await hanging);
    `;
    // A file, not --eval: workers inherit the parent's execArgv, and --input-type breaks them.
    const dir = mkdtempSync(join(tmpdir(), 'embedder-pool-'));
    const file = join(dir, 'script.mjs');
    writeFileSync(file, script);
    const started = Date.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', file],
          { timeout: 15_000 },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
        );
      },
    ).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(stderr).toBe('');
    expect(stdout).toBe('vectors 2\nfailed BackendUnavailableError\nclosed the embedder was closed\n');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('EmbedderPool sharing a worker call between small calls', () => {
  /** A fault pool whose query worker is kept busy (~100 ms a text) by one call, so the calls made meanwhile queue behind it. */
  async function withBusyQueryWorker(options: EmbedderPoolOptions = {}) {
    const { pool, stats } = await faultPool({ passageWorkers: 1, ...options, data: { delayMs: { query: 100 } } });
    const busy = pool.embed(['one slow search'], 'query');
    await waitFor(() => stats[CALLS] === 1);
    return { pool, stats, busy };
  }

  it('hands queued small calls to the worker together; each gets its own vectors and tokens', async () => {
    const { pool, stats, busy } = await withBusyQueryWorker();
    const queries = ['where is the spare key', 'boiler', 'what did the plumber charge us'];
    const answers = await Promise.all(queries.map((q) => pool.embed([q], 'query')));
    await busy;
    answers.forEach(({ vectors, tokens }, i) => {
      expect(vectors).toHaveLength(1);
      expect(Array.from(vectors[0]!)).toEqual(Array.from(reference(queries[i]!)));
      expect(tokens).toBe(queries[i]!.split(' ').length); // its own words, not the shared call's
    });
    expect(stats[QUERY_ROLE_CALLS]).toBe(2); // the busy one, then the three together
    expect(stats[MAX_BATCH]).toBe(3);
  });

  it('never joins more than maxBatch texts, nor a count to an embedding', async () => {
    const { pool, stats, busy } = await withBusyQueryWorker({ maxBatch: 3 });
    const calls = [
      pool.embed(['a', 'b'], 'query'),
      pool.embed(['c', 'd'], 'query'), // would make 4: its own call
      pool.count(['count these words']),
      pool.embed(['e'], 'query'),
    ];
    const [ab, cd, counted, e] = await Promise.all(calls);
    await busy;
    expect(counted).toBe(3);
    expect((ab as { vectors: Float32Array[] }).vectors.map((v) => Array.from(v))).toEqual(
      ['a', 'b'].map((t) => Array.from(reference(t))),
    );
    expect(Array.from((cd as { vectors: Float32Array[] }).vectors[1]!)).toEqual(Array.from(reference('d')));
    expect(Array.from((e as { vectors: Float32Array[] }).vectors[0]!)).toEqual(Array.from(reference('e')));
    expect(stats[MAX_BATCH]).toBe(2);
    expect(stats[QUERY_ROLE_CALLS]).toBe(5); // busy; a+b; c+d; the count; e after the count
  });

  it("a text that fails a shared call fails only its own call, and the others' texts are embedded again alone", async () => {
    const { pool, stats, busy } = await withBusyQueryWorker();
    const [first, bad, last] = await Promise.allSettled([
      pool.embed(['first search'], 'query'),
      pool.embed(['BAD_TEXT'], 'query'),
      pool.embed(['last search'], 'query'),
    ]);
    await busy;
    expect(first.status === 'fulfilled' && Array.from(first.value.vectors[0]!)).toEqual(
      Array.from(reference('first search')),
    );
    expect(bad.status === 'rejected' && (bad.reason as Error).message).toBe('embedding failed: bad input');
    expect(last.status === 'fulfilled' && Array.from(last.value.vectors[0]!)).toEqual(
      Array.from(reference('last search')),
    );
    expect(stats[QUERY_ROLE_CALLS]).toBe(1 + 1 + 3); // busy; the shared call; each alone
  });

  it('a text that kills the worker in a shared call fails only its own call', async () => {
    const { pool, busy } = await withBusyQueryWorker({ restartDelayMs: 20 });
    const [first, broken, last] = await Promise.allSettled([
      pool.embed(['first search'], 'query'),
      pool.embed(['WASM_BROKEN'], 'query'),
      pool.embed(['last search'], 'query'),
    ]);
    await busy;
    expect(first.status).toBe('fulfilled');
    expect(broken.status === 'rejected' && (broken.reason as Error).message).toMatch(/memory access out of bounds/);
    expect(last.status === 'fulfilled' && Array.from(last.value.vectors[0]!)).toEqual(
      Array.from(reference('last search')),
    );
  });
});

describe('EmbedderPool reporting tokens', () => {
  it('reports the tokens the worker counted with the vectors, summed over sub-batches; an empty list is zero', async () => {
    const { pool } = await faultPool({ maxBatch: 2 });
    expect((await pool.embed(['one two three', 'four five', 'six', ''], 'passage')).tokens).toBe(6);
    expect(await pool.embed([], 'passage')).toEqual({ vectors: [], tokens: 0 });
  });

  it('counts texts it does not embed on the query worker, the same way', async () => {
    const { pool, stats } = await faultPool({ maxBatch: 2 });
    expect(await pool.count(['one two three', 'four five', 'six', ''])).toBe(6);
    expect(await pool.count([])).toBe(0);
    expect(stats[PASSAGE_ROLE_CALLS]).toBe(0);
  });
});

describe('EmbedderPool with the real model', () => {
  it('embeds to unit-length 512-d vectors, the same for query and passage', async () => {
    const pool = await EmbedderPool.start();
    pools.push(pool);
    expect(pool.name).toBe('universal-sentence-encoder-lite');
    expect(pool.dimensions).toBe(512);
    const input = ['The cat sat on the mat.', 'Quarterly revenue grew by twelve percent.'];
    const [
      { vectors: passages },
      {
        vectors: [query],
      },
    ] = await Promise.all([pool.embed(input, 'passage'), pool.embed([input[0]!], 'query')]);
    expect(passages).toHaveLength(2);
    for (const vector of passages) {
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
    }
    const diff = Math.max(...Array.from(query!, (x, i) => Math.abs(x - passages[0]![i]!)));
    expect(diff).toBeLessThan(1e-5);
    // Different texts get clearly different vectors.
    const cosine = passages[0]!.reduce((sum, x, i) => sum + x * passages[1]![i]!, 0);
    expect(cosine).toBeLessThan(0.5);
    // Spend: the model's own SentencePiece tokens, more for a longer text.
    const [short, long] = [
      (await pool.embed(['The cat sat.'], 'passage')).tokens,
      (await pool.embed(['The cat sat on the mat by the door all afternoon.'], 'query')).tokens,
    ];
    expect(short).toBeGreaterThan(0);
    expect(long).toBeGreaterThan(short);
    const health = pool.health();
    expect(health.state).toBe('ok');
    expect(health.workers.live).toBe(health.workers.total);
    if (process.platform === 'linux') {
      // Passage workers reniced themselves, and only themselves.
      const nice = readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
      expect(nice.filter((n) => n === 19)).toHaveLength(health.workers.total - 1);
      expect(nice.filter((n) => n === 0).length).toBeGreaterThan(1);
    }
  });

  it('gives a query the same vector and tokens whether it shares a model call or not', async () => {
    const pool = await EmbedderPool.start({ passageWorkers: 1 });
    pools.push(pool);
    const queries = [
      'how much did the boiler repair cost',
      'when is the dentist',
      'what did we decide about the fence',
    ];
    const alone: Array<{ vectors: Float32Array[]; tokens: number }> = [];
    for (const q of queries) alone.push(await pool.embed([q], 'query'));
    // Sent at once: the first runs, the other two queue behind it and share the next call.
    const together = await Promise.all(queries.map((q) => pool.embed([q], 'query')));
    together.forEach(({ vectors, tokens }, i) => {
      expect(tokens).toBe(alone[i]!.tokens);
      const diff = Math.max(...Array.from(vectors[0]!, (x, j) => Math.abs(x - alone[i]!.vectors[0]![j]!)));
      expect(diff).toBeLessThan(1e-5);
    });
    expect(new Set(alone.map((a) => a.tokens)).size).toBeGreaterThan(1); // the counts tell the texts apart
  });
});
