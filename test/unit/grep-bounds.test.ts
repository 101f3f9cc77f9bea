import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { DomainError } from '../../lambdas/core/errors.js';
import {
  GREP_BUDGETS,
  type GrepBudgets,
  type GrepRequest,
  type GrepResult,
  GrepService,
  MAX_TEXT_LINES,
} from '../../lambdas/core/grep.js';
import type { GrepCandidate, IndexItem, LibraryRef } from '../../lambdas/core/model.js';
import type { GrepScan, SearchIndex } from '../../lambdas/core/ports.js';

/**
 * Grep's page budgets (core/grep.ts, GrepBudgets) over the real SQLite index:
 * a page that runs out of bytes or time answers what it found with has_more
 * and a cursor at the place reached; walking the pages still finds every
 * matching line exactly once, however small the budgets.
 */
const ref: LibraryRef = { tenantId: 'ten_bounds', endUserId: null };
const GENERATION = 'gen-1';
const documents = { libraryGeneration: async () => GENERATION };
const UNBOUNDED: GrepBudgets = {
  pageBytes: Number.POSITIVE_INFINITY,
  pageMs: Number.POSITIVE_INFINITY,
  sliceMs: GREP_BUDGETS.sliceMs,
};

let sequence = 0;
function item(text: string): IndexItem {
  sequence += 1;
  const stamp = new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString().replace('Z', '000');
  return {
    itemId: `file_${String(sequence).padStart(26, '0')}`,
    kind: 'file_excerpt',
    title: `doc ${sequence}`,
    sourceRef: null,
    contentDate: stamp,
    text,
    passages: [],
    vectors: [],
  };
}

/** A fresh index holding these texts (the last one newest). */
async function library(texts: string[]): Promise<{ index: SqliteSearchIndex; ids: string[] }> {
  const index = new SqliteSearchIndex(openDatabase(':memory:'), 4, 'none');
  const ids: string[] = [];
  for (const text of texts) {
    const it = item(text);
    await index.put(ref, it, GENERATION);
    ids.push(it.itemId);
  }
  return { index, ids };
}

/** The index with its grep reads observed: documents and bytes handed to the core, and an optional wait before each. */
function observed(inner: SearchIndex, before?: () => Promise<void>) {
  const reads = { documents: 0, bytes: 0, scans: [] as GrepScan[] };
  const index = new Proxy(inner, {
    get(target, property) {
      if (property === 'grepCandidates') {
        return async function* (r: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
          reads.scans.push(scan);
          for await (const doc of target.grepCandidates(r, scan)) {
            if (before) await before();
            reads.documents += 1;
            reads.bytes += Buffer.byteLength(doc.text);
            yield doc;
          }
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { index, reads };
}

/** Every page from the first, with a bound on their number (a cursor that does not advance would loop). */
async function walk(grep: GrepService, request: Omit<GrepRequest, 'cursor'>, maxPages = 10_000) {
  const pages: Array<{ items: GrepResult[]; hasMore: boolean }> = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await grep.grep(ref, { ...request, cursor });
    pages.push(page);
    if (!page.hasMore) {
      expect(page.nextCursor).toBeNull();
      return { pages, results: pages.flatMap((p) => p.items.map((r) => `${r.file_id}:${r.line}`)) };
    }
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(page.nextCursor).not.toBe(cursor);
    cursor = page.nextCursor!;
    if (pages.length > maxPages) throw new Error('paging never ended');
  }
}

/** A text of `lines` lines where every `every`-th one (1-based) holds the two-character pattern "zq". */
const linesWithMatches = (lines: number, every: number, filler = 'plain words here') =>
  Array.from({ length: lines }, (_, i) =>
    (i + 1) % every === 0 ? `line ${i + 1} has zq in it` : `${filler} ${i + 1}`,
  ).join('\n');

describe('grep page budgets', () => {
  it('the defaults: 32 MiB and 3 s a page, 10 ms between yields', () => {
    expect(GREP_BUDGETS).toEqual({ pageBytes: 32 * 1024 * 1024, pageMs: 3_000, sliceMs: 10 });
  });

  it('a page stops at the first document boundary past its byte budget: a short page with has_more and a cursor, none read beyond', async () => {
    // Ten documents of about 10 kB, one match each; 25 kB a page reads three of them.
    const texts = Array.from({ length: 10 }, (_, d) => `${'x'.repeat(10_000)}\ndocument ${d} zq`);
    const { index, ids } = await library(texts);
    const { index: watched, reads } = observed(index);
    const grep = new GrepService({ index: watched, documents }, { ...UNBOUNDED, pageBytes: 25_000 });
    const page = await grep.grep(ref, { pattern: 'zq', caseSensitive: false, limit: 50 });
    expect(page.items.map((r) => r.file_id)).toEqual([ids[9], ids[8], ids[7]]);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(reads.documents).toBe(3);
    expect(reads.bytes).toBeLessThan(25_000 + 10_100);

    const next = await grep.grep(ref, { pattern: 'zq', caseSensitive: false, limit: 50, cursor: page.nextCursor! });
    expect(next.items.map((r) => r.file_id)).toEqual([ids[6], ids[5], ids[4]]);
    // The whole documents read: the next page starts after them, not inside the last one.
    expect(reads.scans[1]).toMatchObject({ startAfter: { id: ids[7] } });
    expect(reads.scans[1]!.startAt).toBeUndefined();

    const { results, pages } = await walk(grep, { pattern: 'zq', caseSensitive: false, limit: 50 });
    expect(results).toEqual([...ids].reverse().map((id) => `${id}:2`));
    expect(pages.length).toBeGreaterThanOrEqual(4);
  });

  it('a document larger than the byte budget is still read whole: every page moves on', async () => {
    const texts = Array.from({ length: 3 }, () => linesWithMatches(200, 50));
    const { index, ids } = await library(texts);
    const grep = new GrepService({ index, documents }, { ...UNBOUNDED, pageBytes: 1 });
    const { pages, results } = await walk(grep, { pattern: 'ZQ', caseSensitive: false, limit: 50 });
    // After the last document the page cannot know it was the last: one more, empty, page ends the walk.
    expect(pages.map((p) => p.items.length)).toEqual([4, 4, 4, 0]);
    expect(results).toEqual([...ids].reverse().flatMap((id) => [50, 100, 150, 200].map((line) => `${id}:${line}`)));
  });

  it('a page stops when its time runs out, between documents, with has_more and a cursor', async () => {
    const texts = Array.from({ length: 12 }, (_, d) => `document ${d}\nzq here`);
    const { index, ids } = await library(texts);
    // A slow store: each document takes 30 ms to arrive; a page has 100 ms.
    const { index: slow } = observed(index, () => sleep(30));
    const grep = new GrepService({ index: slow, documents }, { ...UNBOUNDED, pageMs: 100 });
    const started = Date.now();
    const page = await grep.grep(ref, { pattern: 'zq', caseSensitive: false, limit: 50 });
    // About four documents' wait (the one that ends past the budget is scanned), never all twelve.
    expect(Date.now() - started).toBeLessThan(300);
    expect(page.hasMore).toBe(true);
    expect(page.items.length).toBeGreaterThanOrEqual(1);
    expect(page.items.length).toBeLessThan(12);
    const { results } = await walk(grep, { pattern: 'zq', caseSensitive: false, limit: 50 });
    expect(results).toEqual([...ids].reverse().map((id) => `${id}:2`));
  });

  it('the request deadline ends a page too, and a page past its deadline still reads one document', async () => {
    const texts = Array.from({ length: 5 }, (_, d) => `zq ${d}`);
    const { index, ids } = await library(texts);
    const grep = new GrepService({ index, documents }, UNBOUNDED);
    const { pages, results } = await walk(grep, {
      pattern: 'zq',
      caseSensitive: false,
      limit: 50,
      deadline: Date.now() - 1,
    });
    expect(pages.map((p) => p.items.length)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(results).toEqual([...ids].reverse().map((id) => `${id}:1`));
  });

  it('out of time inside a long document: the cursor holds the line reached, and the next page resumes after it', async () => {
    const { index, ids } = await library([linesWithMatches(5_000, 7)]);
    const { index: watched, reads } = observed(index);
    const grep = new GrepService({ index: watched, documents }, { ...UNBOUNDED, pageMs: 0 });
    const { pages, results } = await walk(grep, { pattern: 'zq', caseSensitive: true, limit: 200 });
    // The clock is read every 1024 lines: pages of 1024 lines, then the rest, then an empty last page.
    expect(pages.length).toBe(6);
    expect(pages.slice(0, 5).every((p) => p.hasMore && p.items.length > 0)).toBe(true);
    expect(pages[5]!.items).toEqual([]);
    expect(pages[0]!.items.at(-1)!.line).toBeLessThanOrEqual(1024);
    expect(pages[1]!.items[0]!.line).toBeGreaterThan(1024);
    expect(reads.scans.slice(1, 5).every((scan) => scan.startAt?.id === ids[0] && !scan.startAfter)).toBe(true);
    expect(reads.scans[5]).toMatchObject({ startAfter: { id: ids[0] } });
    const expected = Array.from({ length: Math.floor(5_000 / 7) }, (_, k) => `${ids[0]}:${(k + 1) * 7}`);
    expect(results).toEqual(expected);
  });

  it('with every budget forced tiny, walking the pages finds exactly what one unbounded walk finds, each line once', async () => {
    const texts = [
      linesWithMatches(3_000, 11),
      'zq\r\nzq\rzq\nnone\n',
      'nothing to see',
      linesWithMatches(40, 3),
      `${'y'.repeat(300_000)} zq at the end of a long line\nzq`,
      '',
    ];
    const { index } = await library(texts);
    const reference = await walk(new GrepService({ index, documents }, UNBOUNDED), {
      pattern: 'zq',
      caseSensitive: false,
      limit: 7,
    });
    expect(reference.results.length).toBe(Math.floor(3_000 / 11) + 3 + Math.floor(40 / 3) + 2);
    const tiny = new GrepService({ index, documents }, { pageBytes: 1, pageMs: 0, sliceMs: 0 });
    for (const limit of [1, 7, 200]) {
      const bounded = await walk(tiny, { pattern: 'zq', caseSensitive: false, limit });
      expect(bounded.results).toEqual(reference.results);
      expect(new Set(bounded.results).size).toBe(bounded.results.length);
    }
  });

  it('yields the event loop while it scans: a timer keeps firing during a long unindexed grep', async () => {
    // 80 MiB of short lines, from memory (the one text, many times), in one page (no page budget): hundreds of milliseconds of scanning.
    const text = linesWithMatches(100_000, 1_000_000, 'a short line of filler');
    const copies = Math.ceil((80 * 1024 * 1024) / text.length);
    const inMemory = {
      async *grepCandidates(): AsyncIterable<GrepCandidate> {
        for (let d = 0; d < copies; d++) {
          yield {
            itemId: `file_${String(copies - d).padStart(26, '0')}`,
            title: null,
            sourceRef: null,
            contentDate: `2026-01-01T00:00:00.${String(copies - d).padStart(6, '0')}`,
            text,
          };
        }
      },
    } as unknown as SearchIndex;
    const grep = new GrepService({ index: inMemory, documents }, UNBOUNDED);
    let last = performance.now();
    let longestGap = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks += 1;
    }, 5);
    const started = performance.now();
    last = started;
    const page = await grep.grep(ref, { pattern: 'ωζ', caseSensitive: false, limit: 50 });
    const took = performance.now() - started;
    clearInterval(timer);
    expect(page).toEqual({ items: [], hasMore: false, nextCursor: null });
    expect(took).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThan(took / 100);
    expect(longestGap).toBeLessThan(150);
  });
});

describe('grep cursor positions', () => {
  /** A real cursor of the query, its position rewritten. */
  async function forged(grep: GrepService, change: (position: Record<string, unknown>) => void) {
    const page = await grep.grep(ref, { pattern: 'zq', caseSensitive: false, limit: 1 });
    const cursor = JSON.parse(Buffer.from(page.nextCursor!, 'base64url').toString('utf8'));
    change(cursor.p);
    return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
  }

  it('refuses a line that is negative, fractional, huge or not a number, and keys that are empty or too long, as invalid_request cursor', async () => {
    const { index } = await library(['zq\nzq\nzq']);
    const grep = new GrepService({ index, documents });
    const bad: Array<(p: Record<string, unknown>) => void> = [
      (p) => {
        p.line = -1;
      },
      (p) => {
        p.line = -1e9;
      },
      (p) => {
        p.line = 1.5;
      },
      (p) => {
        p.line = 1e300;
      },
      (p) => {
        p.line = MAX_TEXT_LINES + 1;
      },
      (p) => {
        p.line = '2';
      },
      (p) => {
        p.line = null;
      },
      (p) => {
        p.id = '';
      },
      (p) => {
        p.id = 'f'.repeat(10_000);
      },
      (p) => {
        p.createdAt = 5;
      },
      (p) => {
        delete p.createdAt;
      },
    ];
    for (const change of bad) {
      const cursor = await forged(grep, change);
      const refused = await grep
        .grep(ref, { pattern: 'zq', caseSensitive: false, limit: 1, cursor })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^cursor: /) });
    }
    // Within range: a line past the document's end just finishes it; line 0 reads it from the start.
    const past = await grep.grep(ref, {
      pattern: 'zq',
      caseSensitive: false,
      limit: 5,
      cursor: await forged(grep, (p) => {
        p.line = MAX_TEXT_LINES;
      }),
    });
    expect(past).toEqual({ items: [], hasMore: false, nextCursor: null });
    const fromStart = await grep.grep(ref, {
      pattern: 'zq',
      caseSensitive: false,
      limit: 5,
      cursor: await forged(grep, (p) => {
        p.line = 0;
      }),
    });
    expect(fromStart.items.map((r) => r.line)).toEqual([1, 2, 3]);
  });
});
