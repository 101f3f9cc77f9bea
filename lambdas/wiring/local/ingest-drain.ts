import { setImmediate } from 'node:timers/promises';
import type { QueueDrain, QueuedJob, SqliteIngestQueue } from '../../adapters/local/sqlite-ingest-queue.js';
import { EMBED_STEP_PASSAGES, IngestWorker, type PendingFloor } from '../../core/ingest-worker.js';
import type { DocumentRecord } from '../../core/model.js';
import type { DocumentStore } from '../../core/ports.js';

export interface DrainOptions {
  /** Steps run at once: one per embedder thread, so both cores work. */
  lanes: number;
  /** Passages per embedding step (small: a big document never holds a lane for long). */
  stepPassages?: number;
  /** Retries of a failing step: first wait, doubling to maxDelayMs, failing the document after maxAttempts. */
  retry?: { baseDelayMs: number; maxDelayMs: number; maxAttempts: number };
  log?: (message: string, detail: Record<string, unknown>) => void;
}

const DEFAULT_RETRY = { baseDelayMs: 500, maxDelayMs: 8_000, maxAttempts: 6 };
/** Starts of a file's extraction that the process did not survive, after which the document fails instead of being read again. */
export const MAX_EXTRACTIONS_CUT_OFF = 2;

interface ActiveJob {
  job: QueuedJob;
  doc: DocumentRecord | null;
  /** A step is extracting this document: nothing else runs on it until it is done. */
  extracting: boolean;
  /** Passage ordinals being embedded now (never handed to two steps). */
  inFlight: Set<number>;
  /** Where the next search for passages without vectors starts (IngestWorker.pending). */
  floor: PendingFloor;
  /** A step is choosing this document's next passages: another waits, so none is chosen twice. */
  choosing: boolean;
  /** Every passage left is in flight: no new step until one ends. */
  exhausted: boolean;
  /** Failures in a row; reset by a success. */
  failures: number;
  /** After repeated failures, passages go one at a time to find the bad one. */
  isolating: boolean;
  notBefore: number;
}

const libraryKey = (job: QueuedJob) => `${job.tenantId}\u0000${job.endUserId ?? ''}`;

/**
 * Drains the local ingestion queue at the embedder's full speed, fairly: the
 * next step always goes to the next tenant in turn, then the next library of
 * that tenant, then that library's oldest job, so one tenant's (or end
 * user's) big upload cannot starve another's captures. A step is one
 * extraction or a few passages, so turns come round quickly. Every step is
 * durable, so a crash loses at most the steps running; the jobs table and
 * the index say where to resume.
 */
export class LocalIngestDrain implements QueueDrain {
  private readonly active = new Map<string, ActiveJob>();
  /** Turns: when each tenant and each library last had a step (a counter); the least recently served goes next. */
  private readonly tenantTurns = new Map<string, number>();
  private readonly libraryTurns = new Map<string, number>();
  private turn = 0;
  private running = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly retry: typeof DEFAULT_RETRY;

  constructor(
    private readonly queue: SqliteIngestQueue,
    private readonly worker: IngestWorker,
    private readonly documents: Pick<DocumentStore, 'listStaleProcessing'>,
    private readonly options: DrainOptions,
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    queue.attach(this);
  }

  /**
   * Resumes after a start (or a crash): a document still `processing` with
   * no job was cut off before its capture answered, so it is rolled back,
   * unless it is a replacement that already took its older versions out of
   * the index (IngestWorker.recoverCutOff: then its job is queued again);
   * every job left in the table resumes.
   */
  async start(): Promise<void> {
    for (const doc of await this.documents.listStaleProcessing('\uffff')) {
      if (this.queue.has(doc.id)) continue;
      const job = await this.worker.recoverCutOff(doc);
      if (job) await this.queue.enqueue(job);
    }
    for (const job of this.queue.all()) this.add(job);
    this.schedule();
  }

  wake(job: QueuedJob): void {
    this.add(job);
    this.schedule();
  }

  isIdle(): boolean {
    return this.active.size === 0 && this.running === 0;
  }

  /** Resolves once nothing is queued or running (tests, benchmarks, a graceful stop). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking steps; steps running finish on their own (each is durable). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private add(job: QueuedJob) {
    if (this.active.has(job.documentId)) return;
    this.active.set(job.documentId, {
      job,
      doc: null,
      extracting: false,
      inFlight: new Set(),
      floor: { ordinal: 0 },
      choosing: false,
      exhausted: false,
      failures: 0,
      isolating: false,
      notBefore: 0,
    });
  }

  private finish(documentId: string) {
    const entry = this.active.get(documentId);
    if (!entry) return;
    this.active.delete(documentId);
    this.queue.remove(documentId);
    // A library or tenant with nothing left forgets its turn: it comes back as a newcomer, first in line.
    const rest = [...this.active.values()];
    if (!rest.some((a) => libraryKey(a.job) === libraryKey(entry.job))) this.libraryTurns.delete(libraryKey(entry.job));
    if (!rest.some((a) => a.job.tenantId === entry.job.tenantId)) this.tenantTurns.delete(entry.job.tenantId);
  }

  private runnable(entry: ActiveJob, now: number): boolean {
    return (
      !entry.extracting &&
      !entry.choosing &&
      !entry.exhausted &&
      entry.notBefore <= now &&
      !(entry.isolating && entry.inFlight.size > 0)
    );
  }

  /**
   * The next job to step: the runnable job of the tenant served least
   * recently, within it the library served least recently, within that the
   * oldest job. Newcomers (turn 0) go first.
   */
  private pick(now: number): ActiveJob | null {
    let best: ActiveJob | null = null;
    let bestKey: [number, number, number] | null = null;
    for (const entry of this.active.values()) {
      if (!this.runnable(entry, now)) continue;
      const key: [number, number, number] = [
        this.tenantTurns.get(entry.job.tenantId) ?? 0,
        this.libraryTurns.get(libraryKey(entry.job)) ?? 0,
        entry.job.enqueuedAt,
      ];
      if (
        !bestKey ||
        key[0] < bestKey[0] ||
        (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))
      ) {
        best = entry;
        bestKey = key;
      }
    }
    if (best) {
      this.turn += 1;
      this.tenantTurns.set(best.job.tenantId, this.turn);
      this.libraryTurns.set(libraryKey(best.job), this.turn);
    }
    return best;
  }

  private schedule() {
    if (this.stopped) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const now = Date.now();
    while (this.running < this.options.lanes) {
      const entry = this.pick(now);
      if (!entry) break;
      // Taken now, until its step has reserved its passages (or become an extraction): marked only when the
      // step started, this loop handed the same job to every free lane, and each lane began its own extraction
      // of one file (the third found it "cut off" twice and failed it).
      entry.choosing = true;
      this.running += 1;
      // Each step starts on a turn of its own: with an embedder that answers at once (a cache, a test double),
      // steps chained by promises alone would run back to back and starve every request until the backlog is gone.
      void setImmediate()
        .then(() => this.step(entry))
        .finally(() => {
          this.running -= 1;
          if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
          this.schedule();
        });
    }
    // Jobs waiting out a retry delay: look again when the first one may go.
    const waits = [...this.active.values()].filter((a) => a.notBefore > now).map((a) => a.notBefore - now);
    if (waits.length && this.running < this.options.lanes)
      this.timer = setTimeout(() => this.schedule(), Math.min(...waits));
  }

  /** One unit of work: an extraction, or one embedding step. Never throws. */
  private async step(entry: ActiveJob): Promise<void> {
    const { job } = entry;
    let reserved: number[] = [];
    // The job was marked `choosing` when schedule() picked it for this step.
    try {
      if (!entry.doc || entry.doc.passageCount === null) {
        const next = await this.worker.next(job);
        if (!next) return this.finish(job.documentId);
        entry.doc = next.doc;
      }
      const doc = entry.doc!;
      if (doc.passageCount === null) {
        entry.extracting = true;
        entry.choosing = false;
        // A file the process died reading, again and again (a crash in a native reader), is not read once more: a crash loop ends here.
        const cutOff = this.queue.extractionBegins(job.documentId);
        if (cutOff >= MAX_EXTRACTIONS_CUT_OFF) {
          entry.extracting = false;
          await this.worker.fail(
            doc,
            `extraction_failed: the service stopped ${cutOff} times while reading this file; it is not read again`,
          );
          return this.finish(job.documentId);
        }
        const result = await this.worker.extract(doc).finally(() => {
          entry.extracting = false;
          this.queue.extractionEnded(job.documentId);
        });
        entry.doc = null; // read again: extraction learned its kind and passages
        if (result.outcome === 'failed') return this.finish(job.documentId);
        return this.succeeded(entry);
      }
      const size = entry.isolating ? 1 : (this.options.stepPassages ?? EMBED_STEP_PASSAGES);
      const passages = await this.worker.pending(doc, size, entry.inFlight, entry.floor);
      entry.choosing = false;
      if (!passages.length) {
        if (entry.inFlight.size) {
          entry.exhausted = true;
          return;
        }
        if (!(await this.worker.settleIfComplete(doc)) && entry.floor.ordinal > 0) {
          // A passage below where the search starts still lacks its vector: look again from the first one.
          entry.floor.ordinal = 0;
          this.schedule();
          return;
        }
        return this.finish(job.documentId);
      }
      reserved = passages.map((p) => p.ordinal);
      for (const o of reserved) entry.inFlight.add(o);
      this.schedule(); // the job's next passages may go to another free lane meanwhile
      const attached = await this.worker.embedPassages(doc, passages);
      if (!attached) return this.finish(job.documentId); // erased or deleted meanwhile
      this.succeeded(entry);
    } catch (error) {
      entry.choosing = false;
      await this.failed(entry, error, reserved);
    } finally {
      entry.choosing = false;
      for (const o of reserved) entry.inFlight.delete(o);
      if (reserved.length) entry.exhausted = false;
    }
  }

  private succeeded(entry: ActiveJob) {
    entry.failures = 0;
    entry.isolating = false; // back to full steps; a bad passage ahead sends it back here
  }

  /**
   * A step failed (the embedder or a store is down, or one passage cannot be
   * embedded): wait and retry, doubling the wait; a batch that keeps failing
   * is split to passages one at a time; a step still failing after every
   * attempt fails its document alone, with the reason.
   */
  private async failed(entry: ActiveJob, error: unknown, reserved: number[]) {
    entry.failures += 1;
    this.options.log?.('ingestion step failed', {
      documentId: entry.job.documentId,
      failures: entry.failures,
      passages: reserved.length,
      error: String((error as Error)?.message ?? error),
    });
    if (reserved.length > 1 && entry.failures >= 2) entry.isolating = true;
    if (entry.failures >= this.retry.maxAttempts && (reserved.length <= 1 || entry.isolating)) {
      const doc = entry.doc;
      if (doc) {
        const passage = reserved.length === 1 ? reserved[0] : undefined;
        await this.worker
          .fail(doc, IngestWorker.gaveUp(error, { passage, attempts: entry.failures }))
          .catch(() => undefined);
      }
      return this.finish(entry.job.documentId);
    }
    entry.notBefore = Date.now() + Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (entry.failures - 1));
  }
}
