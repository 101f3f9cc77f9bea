import { Worker } from 'node:worker_threads';
import { sourceThreadScript } from '../source-thread-script.js';
import type { SqliteDatabase } from './database.js';

/** What a segment-merge thread is given (segment-merge-worker.ts). */
export interface SegmentMergeData {
  file: string;
  tables: readonly string[];
  pagesPerStep: number;
  /** After the merges, checkpoint the WAL and truncate it (a scrub: old page images hold deleted text). */
  truncateLog?: boolean;
}

/** The full-text indexes whose segments are merged: the keyword leg's and grep's. */
const FULL_TEXT_TABLES = ['items_fts', 'items_trigram'] as const;
/** When an index is merged: once writes pause for `quietMs`, if it has `fromSegments` segments and `fromShare` of it lies outside its largest. */
export interface MergeRule {
  quietMs: number;
  fromSegments: number;
  fromShare: number;
}

export const DEFAULT_MERGE_RULE: MergeRule = {
  // A batch or a run of captures is over.
  quietMs: 5_000,
  // FTS5's own merging keeps about 3 segments a level: three levels deep.
  fromSegments: 8,
  // A few small segments beside a merged index cost a lookup or two each, and merging them rewrites the whole
  // index: a library fed a capture at a time would be rewritten every fifty or so captures. So the segments besides
  // the largest must hold a tenth of its pages (items_fts_idx has a row per leaf page): a rewrite per tenth it grew.
  fromShare: 0.1,
};
/** Stands for the thread while it is being started. */
const PENDING = { terminate: async () => 0 } as unknown as Worker;

/** FTS5 pages merged per transaction (about 4 KB each): most steps take a few milliseconds. */
const PAGES_PER_STEP = 64;

/**
 * Merges the full-text indexes' segments into one once writes pause, in a
 * thread of its own (when: MergeRule). FTS5 writes a segment at every commit and merges them
 * by levels, so a library filled a capture at a time keeps a dozen (13
 * after a million passages), and every term a query reads is looked up in
 * each: merged into one, the keyword leg's walks of the terms' lists took
 * 20% less time and GET /v1/search's p50 went from 51.0-51.1 to 47.2-50.4 ms at a
 * million passages. The merge rewrites the whole index (3 s there), so it
 * waits for a pause in writes, and runs in steps on its own connection:
 * searches read on (WAL) and a capture waits at most one step (most take a
 * few milliseconds; the step holding the lists every item has, the library's
 * and the kind's tokens, took 0.7 s at a million passages).
 */
export class SegmentMerges {
  private timer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  /** A write came while a merge ran: once it ends, the next pause looks again. */
  private wroteDuringMerge = false;
  /** Scrubs asked for since the last one began: they all end with the next. */
  private scrubsWaiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly rule: MergeRule = DEFAULT_MERGE_RULE,
  ) {}

  /** After a write committed: the merge waits for writes to pause again. */
  wrote(): void {
    if (this.closed || this.db.memory) return;
    if (this.worker) this.wroteDuringMerge = true;
    // Every write restarts the wait: the same timer, moved on (no new one per capture).
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => this.mergeIfDue(), this.rule.quietMs);
    // A merge left undone is done after the next pause, or by the next process: it never keeps one alive.
    this.timer.unref();
  }

  /**
   * Makes removed text unrecoverable from the files, in the merge thread, a
   * short transaction at a time: every full-text index merged into one
   * segment (FTS5's contentless_delete only marks deleted rows; a merge
   * drops their tokens), then the WAL checkpointed and truncated. Resolves
   * once done. One scrub runs at a time: those asked for while one runs
   * share the next (a deletion during a merge may have left tokens behind
   * it). It ran on the server's main thread before, as one transaction:
   * every other request waited for it, longer the more text every tenant
   * held (about 12 ms a megabyte; a deletion in a library of 200 MB stalled
   * the server for 30 s and more: an outside probe).
   */
  scrub(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.scrubsWaiting.push({ resolve, reject }));
    if (!this.worker) void this.run([...FULL_TEXT_TABLES], true);
    return done;
  }

  /** No merge later, and the one running stopped (its step in progress rolls back); scrubs waiting are told. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.worker?.terminate();
    for (const waiting of this.scrubsWaiting.splice(0)) waiting.reject(new Error('the index was closed'));
  }

  private mergeIfDue(): void {
    this.timer = null;
    if (this.closed || this.worker || !this.db.open) return;
    let tables: string[];
    try {
      tables = FULL_TEXT_TABLES.filter((table) => this.due(table));
    } catch {
      return; // a busy or closing file: the next pause tries again
    }
    if (tables.length) void this.run(tables, false);
  }

  private due(table: string): boolean {
    const pages = this.db.prepare(`SELECT count(*) FROM ${table}_idx GROUP BY segid`).pluck().all() as number[];
    if (pages.length < this.rule.fromSegments) return false;
    const total = pages.reduce((a, b) => a + b, 0);
    return total - Math.max(...pages) >= this.rule.fromShare * total;
  }

  /** One run of the thread: a merge of `tables`, or a scrub (every table, then the WAL truncated). */
  private async run(tables: string[], scrub: boolean): Promise<void> {
    const data: SegmentMergeData = { file: this.db.name, tables, pagesPerStep: PAGES_PER_STEP, truncateLog: scrub };
    const scrubs = scrub ? this.scrubsWaiting.splice(0) : [];
    // Taken before the thread starts, so no other run starts meanwhile.
    this.worker = PENDING;
    let failure: unknown = null;
    try {
      const script = await sourceThreadScript(new URL('./segment-merge-worker.ts', import.meta.url));
      if (this.closed) throw new Error('the index was closed');
      const worker = new Worker(script, { workerData: data, execArgv: [] });
      this.worker = worker;
      // A merge nobody waits for never keeps the process alive; a scrub has a deletion waiting for it.
      if (!scrub) worker.unref();
      const code = await new Promise<number>((resolve, reject) => worker.once('exit', resolve).once('error', reject));
      if (code !== 0) throw new Error(`the segment-merge thread exited with ${code}`);
    } catch (error) {
      // A merge that could not start or failed changes nothing: the index is as it was, and the next pause tries again.
      failure = error;
    } finally {
      this.worker = null;
      for (const waiting of scrubs)
        if (failure === null) waiting.resolve();
        else waiting.reject(failure);
      if (this.scrubsWaiting.length && !this.closed) void this.run([...FULL_TEXT_TABLES], true);
      else if (this.wroteDuringMerge) {
        this.wroteDuringMerge = false;
        this.wrote();
      }
    }
  }
}
