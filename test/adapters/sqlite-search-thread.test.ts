import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SearchThreads } from '../../lambdas/adapters/local/search-thread.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';

const DIMENSIONS = 16;
const dir = mkdtempSync(join(tmpdir(), 'library-search-thread-'));
let n = 0;
const closing: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(closing.map((c) => c.close()));
});

async function threaded(file = join(dir, `db-${++n}.sqlite`)) {
  const db = openDatabase(file);
  const threads = await SearchThreads.start({ file, dimensions: DIMENSIONS, vectorCacheBytes: 16 * 2 ** 20 });
  const index = new SqliteSearchIndex(db, DIMENSIONS, 'test', { legs: threads });
  closing.push(index);
  return { db, index, file };
}

async function onThisThread(file = join(dir, `db-${++n}.sqlite`)) {
  return { index: new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test'), file };
}

/** Threads running the stand-in that misbehaves on cue (test/support/fault-search-thread.mjs). */
async function faultThreads(options: { queueWaitMs?: number } = {}) {
  const threads = await SearchThreads.start(
    { file: join(dir, 'unused.sqlite'), dimensions: DIMENSIONS },
    new URL('../support/fault-search-thread.mjs', import.meta.url),
    options,
  );
  closing.push(threads);
  return threads;
}

const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };
const near = (index: SqliteSearchIndex, axis: number) =>
  index
    .vectorSearch(alice, { vector: axisVector(DIMENSIONS, axis), limit: 10 })
    .then((hits) => hits.map((h) => h.itemId));

describe('SqliteSearchIndex with search threads', () => {
  it('sees every committed write at the next search: puts, vectors attached later, removals, an erased library', async () => {
    const { index } = await threaded();
    const heron = indexItem('The heron nests by the lake', axisVector(DIMENSIONS, 6));
    await index.put(alice, heron);
    expect(await near(index, 6)).toEqual([heron.itemId]); // the thread loads the library's vectors now

    // Later writes reach the thread's cached scan, not a reload: each one is visible at once.
    const late = indexItem('The otter sleeps late', axisVector(DIMENSIONS, 2), { kind: 'chat', vectors: [] });
    await index.put(alice, late);
    expect(await near(index, 2)).not.toContain(late.itemId); // no vector yet
    await index.attachPassageVectors(alice, late.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 2) }]);
    expect((await near(index, 2))[0]).toBe(late.itemId);
    await index.remove(alice, heron.itemId);
    expect(await near(index, 6)).not.toContain(heron.itemId);
    expect((await index.keywordSearch(alice, { text: 'heron', limit: 10 })).length).toBe(0);
    expect((await index.keywordSearch(alice, { text: 'otter', limit: 10 })).map((h) => h.itemId)).toEqual([
      late.itemId,
    ]);

    await index.removeLibrary(alice);
    expect(await near(index, 2)).toEqual([]);
    const again = indexItem('A new heron', axisVector(DIMENSIONS, 6));
    await index.put(alice, again);
    expect(await near(index, 6)).toEqual([again.itemId]);
  });

  it.each([
    ['each leg in its own thread', threaded],
    ["the legs on the caller's thread", onThisThread],
  ])('reloads what another process wrote to the same file (%s)', async (_, open) => {
    const { index, file } = await open();
    const first = indexItem('first note', axisVector(DIMENSIONS, 3));
    await index.put(alice, first);
    expect(await near(index, 3)).toEqual([first.itemId]); // its scan is cached now

    // Another connection (as `library reindex` or a second server would be) adds to the same library.
    const other = new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
    const second = indexItem('second note', axisVector(DIMENSIONS, 4));
    await other.put(alice, second);
    expect(await near(index, 4)).toContain(second.itemId);
  });

  it("runs a search's legs off the server's thread: a slow one leaves it free", async () => {
    const threads = await faultThreads();
    const started = performance.now();
    const slow = threads.keyword(1, { text: 'slow', limit: 10 });
    // While the thread is busy for 400 ms, this thread's timers run on time.
    const ticks: number[] = [];
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        ticks.push(performance.now() - started);
        if (ticks.length === 5) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    expect(ticks[4]!).toBeLessThan(300);
    expect(await slow).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('never makes the vector leg wait for the keyword leg: each has its thread', async () => {
    const threads = await faultThreads();
    const started = performance.now();
    const slow = threads.keyword(1, { text: 'slow', limit: 10 });
    expect(await threads.vector(1, { vector: axisVector(DIMENSIONS, 1), limit: 10 })).toEqual([]);
    expect(performance.now() - started).toBeLessThan(250);
    await slow;
  });

  it('a thread that dies fails its searches as retryable, and the next search starts a new one', async () => {
    const threads = await faultThreads();
    await expect(threads.keyword(1, { text: 'fail', limit: 10 })).rejects.toBeInstanceOf(BackendUnavailableError);
    const crashed = threads.keyword(1, { text: 'crash', limit: 10 });
    const queued = threads.keyword(1, { text: 'fine', limit: 10 });
    await expect(crashed).rejects.toBeInstanceOf(BackendUnavailableError);
    // A search still waiting its turn is not lost with the thread: the thread started again answers it.
    expect(await queued).toEqual([]);
    expect(await threads.keyword(1, { text: 'fine', limit: 10 })).toEqual([]);
  });

  it("serves tenants in turn: one tenant's queue of slow searches delays another's by one, not by all", async () => {
    const threads = await faultThreads();
    const done: string[] = [];
    const search = (owner: string, text: string, name: string) =>
      threads.keyword(1, { text, limit: 10 }, owner).then(() => done.push(name));
    const flood = [1, 2, 3, 4, 5].map((i) => search('flooder', 'slow', `flooder ${i}`));
    const other = search('other', 'fine', 'other');
    await Promise.all([...flood, other]);
    // The first slow search was running; the flooder's next took its turn; then the other tenant's.
    expect(done.indexOf('other')).toBeLessThanOrEqual(2);
    expect(done.filter((name) => name.startsWith('flooder'))).toEqual([1, 2, 3, 4, 5].map((i) => `flooder ${i}`));
  });

  it('refuses as retryable a search that waited its turn too long, rather than run it for a caller near its deadline', async () => {
    const threads = await faultThreads({ queueWaitMs: 300 });
    const slow = threads.keyword(1, { text: 'slow', limit: 10 }, 'flooder');
    const late = threads.keyword(1, { text: 'fine', limit: 10 }, 'other');
    expect(await slow).toEqual([]);
    await expect(late).rejects.toThrow(/busy; safe to retry/);
    await expect(late).rejects.toBeInstanceOf(BackendUnavailableError);
    // The next is served at once.
    expect(await threads.keyword(1, { text: 'fine', limit: 10 }, 'other')).toEqual([]);
  });

  it('a search asked as the index closes fails as retryable instead of waiting for ever', async () => {
    const threads = await SearchThreads.start(
      { file: join(dir, 'unused.sqlite'), dimensions: DIMENSIONS },
      new URL('../support/fault-search-thread.mjs', import.meta.url),
    );
    // Its outcome is caught at once: it settles while the close is awaited.
    const asked = threads.keyword(1, { text: 'fine', limit: 10 }, 'someone').then(
      () => 'answered',
      (error: unknown) => error,
    );
    await threads.close();
    expect(await asked).toBeInstanceOf(BackendUnavailableError);
  });
});
