import { Worker } from 'node:worker_threads';
import { BackendUnavailableError } from '../../core/errors.js';
import type { PassageHit } from '../../core/model.js';
import type { KeywordQuery, VectorQuery } from '../../core/ports.js';
import { sourceThreadScript } from '../source-thread-script.js';
import { FairQueue } from './fair-queue.js';
import type { FromSearchThread, SearchThreadData, ToSearchThread } from './search-thread-protocol.js';
import type { SearchLegs } from './sqlite-search-legs.js';
import type { VectorChanges } from './vector-cache.js';

interface Pending {
  resolve: (hits: PassageHit[]) => void;
  reject: (error: Error) => void;
}

interface Waiting extends Pending {
  message: ToSearchThread & { id: number };
  queuedAt: number;
}

/**
 * A search waiting longer than this for its thread is refused (503, retry)
 * rather than run: its caller's request (29 s at most) is about to end, so
 * the answer would reach no one. (At 15 s, a search queued behind one slow
 * search of another tenant's, running 15 to 27 s on a loaded machine, was
 * refused where it could still have answered: an outside probe.)
 */
export const SEARCH_QUEUE_WAIT_MS = 25_000;

/**
 * The search index's legs in threads of their own (search-thread-worker.ts),
 * one per leg, so a slow search (a million passages) never stalls the
 * server's other requests (its thread only parses, fuses and answers), and
 * the vector leg, which starts once the query is embedded, never waits for
 * the keyword leg, which starts at once. Messages to a thread are handled in
 * the order sent, so the vector changes of a write that committed before a
 * search was sent are applied before it runs; the keyword leg reads the
 * file as committed.
 *
 * A thread that dies fails its searches BackendUnavailableError (retryable)
 * and is started again by the next search, with an empty cache: it loads
 * what it needs from SQLite, so nothing it missed meanwhile matters.
 */
export class SearchThreads implements SearchLegs {
  private constructor(
    private readonly keywordLane: SearchLane,
    private readonly vectorLane: SearchLane,
  ) {}

  /** Starts both threads and waits until they have opened the file. */
  static async start(
    data: SearchThreadData,
    script?: URL,
    options: { queueWaitMs?: number } = {},
  ): Promise<SearchThreads> {
    const source = script
      ? async () => script
      : () => sourceThreadScript(new URL('./search-thread-worker.ts', import.meta.url));
    const queueWaitMs = options.queueWaitMs ?? SEARCH_QUEUE_WAIT_MS;
    const threads = new SearchThreads(
      new SearchLane(data, source, queueWaitMs),
      new SearchLane(data, source, queueWaitMs),
    );
    try {
      await Promise.all([threads.keywordLane.live(), threads.vectorLane.live()]);
    } catch (error) {
      await threads.close();
      throw error;
    }
    return threads;
  }

  keyword(libraryId: number, query: KeywordQuery, owner = ''): Promise<PassageHit[]> {
    return this.keywordLane.call((id) => ({ type: 'keyword', id, libraryId, query }), owner);
  }

  vector(libraryId: number, query: VectorQuery, owner = ''): Promise<PassageHit[]> {
    return this.vectorLane.call((id) => ({ type: 'vector', id, libraryId, query }), owner);
  }

  /** A committed write's vector changes (a thread that is down loads afresh when it starts, so needs none). */
  changed(changes: VectorChanges): void {
    this.vectorLane.post({ type: 'changes', changes });
  }

  dropped(libraryId: number): void {
    this.vectorLane.post({ type: 'drop', libraryId });
  }

  /** Another process wrote the file: every cached scan may be stale. */
  clear(): void {
    this.vectorLane.post({ type: 'clear' });
  }

  async close(): Promise<void> {
    await Promise.all([this.keywordLane.close(), this.vectorLane.close()]);
  }
}

/**
 * One search thread: started on first use, started again after it dies. It
 * is given one search at a time; the others wait here, each tenant's in turn
 * (FairQueue): handed to the thread as they came, a tenant's flood of slow
 * searches over a large library made every other tenant's search wait
 * behind all of them, for 5 to 28 s, then fail at the request's deadline
 * (an outside probe).
 */
class SearchLane {
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly waiting = new FairQueue<Waiting>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly data: SearchThreadData,
    private readonly script: () => Promise<URL>,
    private readonly queueWaitMs: number,
  ) {}

  /** A message needing no answer, for the thread if it is up. */
  post(message: ToSearchThread): void {
    this.worker?.postMessage(message);
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker ?? (await this.starting?.catch(() => null)) ?? null;
    this.worker = null;
    this.failAll(new BackendUnavailableError('the search index was closed'));
    await worker?.terminate();
  }

  async call(message: (id: number) => ToSearchThread & { id: number }, owner: string): Promise<PassageHit[]> {
    await this.live();
    // Closed meanwhile: its queue was already failed, so this search would wait for ever.
    if (this.closed) throw new BackendUnavailableError('the search index was closed');
    const id = this.nextId++;
    return new Promise<PassageHit[]>((resolve, reject) => {
      this.waiting.push(owner, { message: message(id), resolve, reject, queuedAt: Date.now() });
      this.dispatch();
    });
  }

  /** Hands the thread its next search when it has none (one at a time, so the next is chosen fairly). */
  private dispatch(): void {
    const worker = this.worker;
    while (worker && !this.pending.size && this.waiting.size) {
      const next = this.waiting.shift()!;
      if (Date.now() - next.queuedAt > this.queueWaitMs) {
        next.reject(new BackendUnavailableError('the search index is busy; safe to retry'));
        continue;
      }
      this.pending.set(next.message.id, next);
      worker.ref(); // a search under way keeps the process alive
      worker.postMessage(next.message);
    }
  }

  live(): Promise<Worker> {
    if (this.closed) return Promise.reject(new BackendUnavailableError('the search index was closed'));
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async spawn(): Promise<Worker> {
    const url = await this.script();
    const worker = new Worker(url, {
      workerData: this.data,
      // Plain JavaScript (the bundle), not the server's loader flags (tsx under `npm start`).
      execArgv: [],
    });
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        worker.off('error', failed).off('exit', exited).off('message', ready);
        if (error) reject(new BackendUnavailableError(`the search thread could not start: ${error.message}`));
        else resolve();
      };
      const failed = (error: Error) => settle(error);
      const exited = (code: number) => settle(new Error(`it exited (${code})`));
      const ready = (message: FromSearchThread) =>
        settle(message.type === 'ready' ? undefined : new Error(`it sent ${message.type} first`));
      worker.on('error', failed).on('exit', exited).on('message', ready);
    });
    if (this.closed) {
      await worker.terminate();
      throw new BackendUnavailableError('the search index was closed');
    }
    worker.on('message', (message: FromSearchThread) => this.answer(message));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`it exited (${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answer(message: FromSearchThread): void {
    if (message.type === 'ready') return;
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (!this.pending.size) this.worker?.unref();
    if (message.type === 'hits') call.resolve(message.hits);
    else
      call.reject(
        message.name === 'BackendUnavailableError'
          ? new BackendUnavailableError(message.message)
          : Object.assign(new Error(message.message), { name: message.name }),
      );
    this.dispatch();
  }

  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(new BackendUnavailableError(`the search thread stopped: ${error.message}`));
  }

  /** The searches the thread had fail; those waiting go to the thread started again, or fail when the lane is closed. */
  private failAll(error: Error): void {
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
    if (this.closed) for (const call of this.waiting.drain()) call.reject(error);
    else if (this.waiting.size)
      this.live().then(
        () => this.dispatch(),
        (failure: Error) => this.failWaiting(failure),
      );
  }

  private failWaiting(error: Error): void {
    for (const call of this.waiting.drain()) call.reject(error);
  }
}
