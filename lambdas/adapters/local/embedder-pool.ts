import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { BackendUnavailableError } from '../../core/errors.js';
import type { Embedder, Embedding } from '../../core/ports.js';
import type { TokenCounter } from './o200k-tokens.js';

export interface EmbedderPoolOptions {
  /** The worker script; default: use-worker.mjs (Universal Sentence Encoder lite, 512 dimensions). */
  workerUrl?: URL;
  /** Workers for passages, reniced to 19; default min(2, cores), at least 1. */
  passageWorkers?: number;
  /**
   * Texts per worker call, at most; bounds memory and how long a worker stays busy. Default 4: the
   * model's WebAssembly heap grows to fit the largest call and never shrinks (8 passages of ~100
   * tokens: ~75 MB more per thread; 4: ~20 MB), while the CPU time per passage is the same from 2 up.
   */
  maxBatch?: number;
  /** Wait before replacing a failed worker; doubles (to 5 s) while replacements keep failing. Default 200. */
  restartDelayMs?: number;
  /** A worker call (or start-up) taking longer kills and replaces its worker; a call with no live worker to run it gives up after as long. Default 60000. */
  callTimeoutMs?: number;
  /** Extra data handed to every worker next to its `role` (tests steer fault workers with it). */
  workerData?: Record<string, unknown>;
}

export interface EmbedderPoolHealth {
  state: 'ok' | 'degraded';
  detail: string | null;
  restarts: number;
  workers: { live: number; total: number };
}

type Purpose = 'query' | 'passage';

/** Error messages after which a worker's runtime (the model's WebAssembly) cannot be trusted. */
const BROKEN_RUNTIME = /memory access out of bounds|RuntimeError|\bunreachable\b|\bAborted\b|out of memory/;
const MAX_RESTART_DELAY_MS = 5000;
/** V8's young generation per worker thread (MB). */
const WORKER_YOUNG_GENERATION_MB = 8;
/** Calls failing in a row before health reports degraded. */
const FAILURES_FOR_DEGRADED = 3;

interface Call {
  purpose: Purpose;
  /** Counting tokens (on the query worker) rather than embedding. */
  counting: boolean;
  /** The tokens the model read for the sub-batches answered so far. */
  tokens: number;
  vectors: Float32Array[];
  /** Sub-batches not yet answered. */
  remaining: number;
  settled: boolean;
  resolve: () => void;
  reject: (error: Error) => void;
  /** Set while no worker that could run the call is live. */
  starvedTimer: NodeJS.Timeout | null;
}

/** At most maxBatch texts of one call. */
interface Piece {
  call: Call;
  offset: number;
  texts: string[];
  /** Sent in a group that failed: runs alone now, so a text that fails the worker fails only its own call. */
  alone?: boolean;
}

/**
 * What one worker is handed at a time: queued pieces in order, at most
 * maxBatch texts in all. Concurrent small calls (searches' queries, single
 * captures) share one model call: four queries together took 35 ms where
 * four one after another took 67 ms.
 */
interface Group {
  id: number;
  pieces: Piece[];
}

interface Slot {
  role: Purpose;
  worker: Worker | null;
  state: 'starting' | 'live' | 'down';
  group: Group | null;
  /** Start-up or call deadline. */
  timer: NodeJS.Timeout | null;
  restartTimer: NodeJS.Timeout | null;
  /** Failures since this slot's worker last answered a call: the restart back-off's exponent. */
  failures: number;
  /** Why the slot's last worker was stopped. */
  cause: string | null;
  /** Resolves the current start attempt's promise (ready or failed). */
  started: (() => void) | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The local stack's embedder: worker threads running the offline model, one
 * for queries at normal priority and `passageWorkers` for passages reniced to
 * 19 (nice is per thread on Linux), so a search stays fast while captures use
 * every core. Passage calls are cut into sub-batches of at most `maxBatch`
 * texts, spread over the passage workers and put back in order.
 *
 * Workers are supervised: one that dies, breaks its runtime or overruns
 * `callTimeoutMs` is terminated, its call rejected `BackendUnavailableError`,
 * and a replacement started. No failure escapes as an unhandled rejection.
 */
export class EmbedderPool implements Embedder, TokenCounter {
  private model: { name: string; dimensions: number } | null = null;
  private readonly slots: Slot[];
  private readonly queryQueue: Piece[] = [];
  private readonly passageQueue: Piece[] = [];
  private nextId = 0;
  private restarts = 0;
  private failedInARow = 0;
  private lastFailure: string | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  /** Keeps workers referenced while start() waits for them. */
  private booting = true;

  private constructor(
    private readonly workerUrl: URL,
    passageWorkers: number,
    private readonly maxBatch: number,
    private readonly restartDelayMs: number,
    private readonly callTimeoutMs: number,
    private readonly extraData: Record<string, unknown>,
  ) {
    const slot = (role: Purpose): Slot => ({
      role,
      worker: null,
      state: 'down',
      group: null,
      timer: null,
      restartTimer: null,
      failures: 0,
      cause: null,
      started: null,
    });
    this.slots = [slot('query'), ...Array.from({ length: passageWorkers }, () => slot('passage'))];
  }

  static async start(options: EmbedderPoolOptions = {}): Promise<EmbedderPool> {
    const positive = (value: number | undefined, fallback: number, what: string) => {
      const v = value ?? fallback;
      if (!Number.isFinite(v) || v < 1) throw new RangeError(`${what} must be at least 1, got ${value}`);
      return Math.floor(v);
    };
    const pool = new EmbedderPool(
      options.workerUrl ?? new URL('./use-worker.mjs', import.meta.url),
      positive(options.passageWorkers, Math.max(1, Math.min(2, os.availableParallelism())), 'passageWorkers'),
      positive(options.maxBatch, 4, 'maxBatch'),
      Math.max(0, options.restartDelayMs ?? 200),
      positive(options.callTimeoutMs, 60_000, 'callTimeoutMs'),
      options.workerData ?? {},
    );
    // One at a time, the query thread first: threads loading the model at once
    // each hold its weight files together, and the process keeps that peak (~50 MB).
    for (const slot of pool.slots) await pool.spawn(slot);
    pool.booting = false;
    pool.updateRefs();
    if (!pool.slots.some((slot) => slot.state === 'live')) {
      const cause = pool.slots.find((slot) => slot.cause)?.cause ?? 'unknown';
      await pool.close();
      throw new BackendUnavailableError(`the embedding model could not start: ${cause}`);
    }
    return pool;
  }

  get name(): string {
    return this.model!.name;
  }
  get dimensions(): number {
    return this.model!.dimensions;
  }

  /** The vectors, and the tokens the model read for them (its own SentencePiece tokenizer, counted by the worker as it embeds). */
  embed(texts: readonly string[], purpose: Purpose): Promise<Embedding> {
    return this.submit(texts, purpose, false).then((call) => ({ vectors: call.vectors, tokens: call.tokens }));
  }

  /**
   * The tokens the model would read for texts it is not asked to embed (what
   * the offline answerer read and wrote), with its own tokenizer: counted
   * on the query worker, which is quick and never behind passages.
   */
  async count(texts: readonly string[]): Promise<number> {
    return (await this.submit(texts, 'query', true)).tokens; // the worker skips empty texts (they read none)
  }

  private submit(texts: readonly string[], purpose: Purpose, counting: boolean): Promise<Call> {
    if (this.closed) return Promise.reject(new BackendUnavailableError('the embedder was closed'));
    return new Promise((resolve, reject) => {
      const call: Call = {
        purpose,
        counting,
        tokens: 0,
        vectors: new Array(texts.length),
        remaining: 0,
        settled: false,
        resolve: () => resolve(call),
        reject,
        starvedTimer: null,
      };
      if (!texts.length) return resolve(call);
      const queue = purpose === 'query' ? this.queryQueue : this.passageQueue;
      for (let offset = 0; offset < texts.length; offset += this.maxBatch) {
        queue.push({ call, offset, texts: texts.slice(offset, offset + this.maxBatch) });
        call.remaining += 1;
      }
      this.pump();
    });
  }

  health(): EmbedderPoolHealth {
    const live = this.slots.filter((slot) => slot.state === 'live').length;
    const workers = { live, total: this.slots.length };
    if (this.closed) return { state: 'degraded', detail: 'the embedder was closed', restarts: this.restarts, workers };
    const problems: string[] = [];
    const down = this.slots.filter((slot) => slot.state !== 'live');
    if (down.length) {
      const who = down.length === 1 ? 'embedding worker' : `${down.length} embedding workers`;
      const cause = down.find((slot) => slot.cause)?.cause;
      problems.push(cause ? `${who} restarting after: ${cause}` : `${who} starting`);
    }
    if (this.failedInARow >= FAILURES_FOR_DEGRADED) {
      problems.push(`the last ${this.failedInARow} embedding calls failed, the latest with: ${this.lastFailure}`);
    }
    return {
      state: problems.length ? 'degraded' : 'ok',
      detail: problems.length ? problems.join('; ') : null,
      restarts: this.restarts,
      workers,
    };
  }

  /** No passage sub-batch is queued or running. */
  isIdle(): boolean {
    return (
      !this.passageQueue.length &&
      !this.slots.some((slot) => slot.group?.pieces.some((piece) => piece.call.purpose === 'passage'))
    );
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    const error = new BackendUnavailableError('the embedder was closed');
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.restartTimer) clearTimeout(slot.restartTimer);
      slot.timer = slot.restartTimer = null;
      for (const piece of slot.group?.pieces ?? []) this.failCall(piece.call, error, false);
      slot.group = null;
      if (slot.worker) workers.push(slot.worker);
      slot.worker = null;
      slot.state = 'down';
      slot.started?.();
      slot.started = null;
    }
    for (const piece of [...this.queryQueue, ...this.passageQueue]) this.failCall(piece.call, error, false);
    this.queryQueue.length = this.passageQueue.length = 0;
    this.closing = Promise.all(workers.map((worker) => worker.terminate().catch(() => undefined))).then(
      () => undefined,
    );
    return this.closing;
  }

  /** Starts the slot's worker; resolves once it is ready or has failed (never rejects). */
  private spawn(slot: Slot): Promise<void> {
    return new Promise<void>((resolve) => {
      slot.started = resolve;
      slot.state = 'starting';
      let worker: Worker;
      try {
        // Plain JavaScript workers need none of the parent's flags (a TypeScript loader costs every thread ~10 MB).
        // The model makes little JavaScript garbage: a small young generation keeps each thread ~20 MB leaner.
        worker = new Worker(this.workerUrl, {
          execArgv: [],
          workerData: { ...this.extraData, role: slot.role },
          resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
        });
      } catch (error) {
        slot.worker = null;
        this.stopped(slot, `could not start: ${messageOf(error)}`);
        return;
      }
      slot.worker = worker;
      slot.timer = setTimeout(
        () => this.fail(slot, worker, `did not start within ${this.callTimeoutMs} ms`),
        this.callTimeoutMs,
      );
      slot.timer.unref();
      worker.on('message', (message: unknown) => {
        if (slot.worker === worker) this.onMessage(slot, worker, message);
      });
      worker.on('error', (error: unknown) => this.fail(slot, worker, messageOf(error)));
      worker.on('messageerror', (error: unknown) => this.fail(slot, worker, `unreadable message: ${messageOf(error)}`));
      worker.on('exit', (code: number) => this.fail(slot, worker, `the worker exited with code ${code}`));
      this.updateRefs();
    });
  }

  private onMessage(slot: Slot, worker: Worker, raw: unknown) {
    const message = (raw ?? {}) as {
      ready?: boolean;
      name?: unknown;
      dimensions?: unknown;
      id?: unknown;
      flat?: unknown;
      error?: unknown;
    };
    if (message.ready) {
      if (slot.state !== 'starting') return;
      const { name, dimensions } = message;
      if (typeof name !== 'string' || !Number.isInteger(dimensions) || (dimensions as number) < 1) {
        return this.fail(slot, worker, 'the worker announced no model name and dimensions');
      }
      if (!this.model) this.model = { name, dimensions: dimensions as number };
      else if (this.model.name !== name || this.model.dimensions !== dimensions) {
        return this.fail(
          slot,
          worker,
          `the worker loaded ${name} (${dimensions}), not ${this.model.name} (${this.model.dimensions})`,
        );
      }
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.state = 'live';
      slot.started?.();
      slot.started = null;
      this.pump();
      return;
    }
    const group = slot.group;
    if (!group || message.id !== group.id) return;
    if (message.error !== undefined) {
      const error = String(message.error);
      if (BROKEN_RUNTIME.test(error)) return this.fail(slot, worker, error);
      this.finishGroup(slot);
      this.failGroup(group, new BackendUnavailableError(`embedding failed: ${error}`));
      this.pump();
      return;
    }
    const { flat, tokens, tokensEach } = message as { flat?: unknown; tokens?: unknown; tokensEach?: unknown };
    const dimensions = this.dimensions;
    // A group never mixes counting and embedding (takeGroup).
    const counting = group.pieces[0]!.call.counting;
    const texts = group.pieces.reduce((sum, piece) => sum + piece.texts.length, 0);
    const shared = group.pieces.length > 1;
    this.finishGroup(slot);
    if (
      !Number.isInteger(tokens) ||
      (!counting && (!(flat instanceof Float32Array) || flat.length !== texts * dimensions)) ||
      // Several calls' texts in one model call: each call is charged its own texts' tokens.
      (shared && !(Array.isArray(tokensEach) && tokensEach.length === texts && tokensEach.every(Number.isInteger)))
    ) {
      const what = counting ? 'token count' : `${texts} x ${dimensions} vectors and token count`;
      const error = new BackendUnavailableError(`embedding failed: the worker returned no ${what}`);
      for (const piece of group.pieces) this.failCall(piece.call, error);
    } else {
      slot.failures = 0;
      let at = 0;
      for (const piece of group.pieces) {
        const count = piece.texts.length;
        const pieceTokens = shared
          ? (tokensEach as number[]).slice(at, at + count).reduce((sum, n) => sum + n, 0)
          : (tokens as number);
        this.answer(
          piece,
          counting ? null : (flat as Float32Array).subarray(at * dimensions, (at + count) * dimensions),
          pieceTokens,
        );
        at += count;
      }
    }
    this.pump();
  }

  /** A piece's vectors (null when counting) and tokens; the call resolves with its last piece. */
  private answer(piece: Piece, flat: Float32Array | null, tokens: number) {
    const call = piece.call;
    if (call.settled) return;
    call.tokens += tokens;
    const dimensions = this.dimensions;
    if (flat)
      for (let i = 0; i < piece.texts.length; i++)
        call.vectors[piece.offset + i] = flat.subarray(i * dimensions, (i + 1) * dimensions);
    call.remaining -= 1;
    if (!call.remaining) {
      call.settled = true;
      if (call.starvedTimer) clearTimeout(call.starvedTimer);
      this.failedInARow = 0;
      call.resolve();
    }
  }

  /**
   * A group that failed: alone, its call fails; shared, each piece is queued
   * again to run alone first, so one call's bad text never fails another's.
   */
  private failGroup(group: Group, error: Error) {
    if (group.pieces.length === 1) return this.failCall(group.pieces[0]!.call, error);
    for (const piece of [...group.pieces].reverse()) {
      if (piece.call.settled) continue;
      (piece.call.purpose === 'query' ? this.queryQueue : this.passageQueue).unshift({ ...piece, alone: true });
    }
  }

  private finishGroup(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.group = null;
  }

  /** Stops a worker that failed (ignored when `worker` is no longer the slot's). */
  private fail(slot: Slot, worker: Worker, cause: string) {
    if (slot.worker !== worker || this.closed) return;
    slot.worker = null;
    worker.terminate().catch(() => undefined);
    this.stopped(slot, cause);
  }

  private stopped(slot: Slot, cause: string) {
    slot.state = 'down';
    slot.cause = cause;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const group = slot.group;
    slot.group = null;
    if (group) this.failGroup(group, new BackendUnavailableError(`the embedding worker failed: ${cause}`));
    slot.started?.();
    slot.started = null;
    const delay = Math.min(this.restartDelayMs * 2 ** slot.failures, MAX_RESTART_DELAY_MS);
    slot.failures += 1;
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = null;
      if (this.closed) return;
      this.restarts += 1;
      void this.spawn(slot);
    }, delay);
    // A restart alone does not keep the process alive; a call waiting for it does (its own timer).
    slot.restartTimer.unref();
    this.pump();
  }

  private failCall(call: Call, error: Error, counts = true) {
    if (call.settled) return;
    call.settled = true;
    if (call.starvedTimer) clearTimeout(call.starvedTimer);
    call.starvedTimer = null;
    const queue = call.purpose === 'query' ? this.queryQueue : this.passageQueue;
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.call === call) queue.splice(i, 1);
    if (counts) {
      this.failedInARow += 1;
      this.lastFailure = error.message;
    }
    call.reject(error);
  }

  /** Hands queued sub-batches to idle live workers. */
  private pump() {
    if (this.closed) return;
    const querySlot = this.slots[0]!;
    for (const slot of this.slots) {
      if (slot.state !== 'live' || slot.group || !slot.worker) continue;
      // Queries go to the query worker; to a passage worker (before passages) only while it is down.
      const group = this.takeGroup(
        slot.role === 'query' || (this.queryQueue.length && querySlot.state !== 'live')
          ? this.queryQueue
          : this.passageQueue,
      );
      if (group) this.send(slot, slot.worker, group);
    }
    this.watchStarvation();
    this.updateRefs();
  }

  /** The queue's first pieces, in order, up to maxBatch texts (a count, or a piece running alone, goes by itself). */
  private takeGroup(queue: Piece[]): Group | null {
    const first = queue.shift();
    if (!first) return null;
    const pieces = [first];
    let texts = first.texts.length;
    const joinable = (piece: Piece) => !piece.call.counting && !piece.alone;
    while (joinable(first) && queue.length && joinable(queue[0]!) && texts + queue[0]!.texts.length <= this.maxBatch) {
      const next = queue.shift()!;
      pieces.push(next);
      texts += next.texts.length;
    }
    return { id: this.nextId++, pieces };
  }

  private send(slot: Slot, worker: Worker, group: Group) {
    slot.group = group;
    slot.timer = setTimeout(
      () => this.fail(slot, worker, `a call took longer than ${this.callTimeoutMs} ms`),
      this.callTimeoutMs,
    );
    try {
      const texts = group.pieces.flatMap((piece) => piece.texts);
      worker.postMessage({ id: group.id, texts, ...(group.pieces[0]!.call.counting ? { count: true } : {}) });
    } catch (error) {
      this.fail(slot, worker, `could not send texts: ${messageOf(error)}`);
    }
  }

  /** Queued calls with no live worker able to run them give up after callTimeoutMs. */
  private watchStarvation() {
    const anyLive = this.slots.some((slot) => slot.state === 'live');
    const passageLive = this.slots.some((slot) => slot.role === 'passage' && slot.state === 'live');
    const calls = new Set([...this.queryQueue, ...this.passageQueue].map((piece) => piece.call));
    for (const call of calls) {
      if (call.purpose === 'query' ? anyLive : passageLive) {
        if (call.starvedTimer) clearTimeout(call.starvedTimer);
        call.starvedTimer = null;
      } else if (!call.starvedTimer) {
        call.starvedTimer = setTimeout(() => {
          call.starvedTimer = null;
          const cause = this.slots.find((slot) => slot.state !== 'live' && slot.cause)?.cause ?? 'still starting';
          this.failCall(
            call,
            new BackendUnavailableError(`no embedding worker came back within ${this.callTimeoutMs} ms (${cause})`),
          );
          this.updateRefs();
        }, this.callTimeoutMs);
      }
    }
  }

  /** A worker keeps the process alive only while it has a call (or start() waits for it). */
  private updateRefs() {
    for (const slot of this.slots) {
      if (!slot.worker) continue;
      if (slot.group || this.booting) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}
