import { Worker } from 'node:worker_threads';
import { BackendUnavailableError, CaptureRejected, ExtractionDeferred } from '../../../core/errors.js';
import type { ExtractedText } from '../../../core/ports.js';
import type { ExtractionLimits } from '../limits.js';
import type { OcrEngine, PdfOcr } from '../ocr-ports.js';
import {
  type FromReader,
  fromWire,
  type ReaderMode,
  type ReaderThreadData,
  type ReadOp,
  type ToReader,
  toWire,
} from './protocol.js';
import { threadCpuMs } from './thread-usage.js';

/** Reads for a request that waits on them, or for the ingest queue: each lane has threads of its own. */
export type Lane = 'request' | 'background';

export interface ReaderPoolOptions {
  /** The reader thread's script (full-thread.ts or text-thread.ts, bundled), or how to get it. */
  workerUrl: URL | (() => Promise<URL>);
  mode: ReaderMode;
  limits: ExtractionLimits;
  /** OCR for page images the readers prepare (full mode). */
  ocr?: OcrEngine;
  /** OCR of whole PDFs (Textract's asynchronous jobs). */
  pdfOcr?: PdfOcr;
  /** Threads per lane, each started on first use. */
  threads: Record<Lane, number>;
  /** The process may grow (RSS) this much above what it held when reading began before every running read is stopped. */
  memoryGrowthBytes: number;
  /** An absolute RSS ceiling as well (a Lambda function's memory, less a margin). */
  memoryCeilingBytes?: number;
  /** Niceness per lane (Linux, per thread): readers yield the cores to the server's requests. */
  niceness?: Partial<Record<Lane, number>>;
  /** A request's sniffing (is this slow work?) gives up after this long and counts as slow. Default 2000 ms. */
  sniffBudgetMs?: number;
  /** A thread whose heap is larger than this after a read is replaced (the memory given back). Default 96 MiB. */
  recycleAboveBytes?: number;
  /** How often running reads are checked against their limits. Default 50 ms. */
  watchIntervalMs?: number;
  log?: (message: string, detail: Record<string, unknown>) => void;
}

type StopReason = 'cpu' | 'time' | 'memory' | 'aborted' | 'closed' | 'recycled';

interface Job {
  lane: Lane;
  read: ReadOp;
  /** Hard wall-clock limit of this read (the thread's own deadline fires before it; this stops a thread stuck in synchronous code). */
  wallLimitMs: number;
  signal?: AbortSignal;
  /** Re-run alone: a memory stop hit it beside other reads, so it may not be the culprit. */
  exclusive: boolean;
  resolve(value: ExtractedText | boolean): void;
  reject(error: Error): void;
  detach(): void;
}

interface Slot {
  lane: Lane;
  worker: Worker | null;
  state: 'down' | 'starting' | 'idle' | 'busy' | 'stopping';
  threadId: number | null;
  job: Job | null;
  jobId: number;
  startedAt: number;
  cpuAtStart: number | null;
  /** Why the supervisor stopped this thread, so its exit is not taken for a crash. */
  stopping: StopReason | null;
  /** The error the thread died with, reported on its exit. */
  died: Error | null;
  /** OCR calls in flight for its read, cancelled when the read stops. */
  ocrCalls: Map<number, AbortController>;
  /** Failed starts in a row: a thread that cannot start fails its reads with backend_unavailable, not forever. */
  failedStarts: number;
}

/** Wall-clock grace beyond the readers' own time budget before a thread stuck in synchronous code is stopped. */
const STOP_GRACE_MS = 5_000;
const DEFAULT_NICENESS: Record<Lane, number> = { request: 5, background: 10 };
const MiB = 1024 * 1024;
const DEFAULT_RECYCLE_ABOVE_BYTES = 96 * MiB;

/**
 * Supervised threads that read files (extraction-thread.ts). Every read of
 * caller bytes runs in one of them, never on the thread that serves
 * requests, and within limits the supervisor enforces from outside, so a
 * hostile file costs one bounded read and nothing else:
 * - processor time of the reading thread (Linux; the wall clock elsewhere),
 *   and a wall-clock limit for a thread that never yields;
 * - memory: each thread's heap (V8 resourceLimits), and the process's RSS,
 *   which also counts what a heap limit misses (typed arrays, native
 *   decoders); over it, the running reads are stopped, and a background read
 *   stopped beside others runs again alone, so only the file that needs the
 *   memory fails;
 * - a request's budget: its signal stops the read.
 * A stopped thread is terminated and replaced on the next read. A request
 * never waits for another caller's read: with no request thread free, it is
 * told ExtractionDeferred and queues its file.
 */
export class ReaderPool {
  private readonly slots: Slot[];
  private readonly queues: Record<Lane, Job[]> = { request: [], background: [] };
  private watchdog: NodeJS.Timeout | null = null;
  private baselineRss = 0;
  private nextJobId = 1;
  private closed = false;
  private readonly niceness: Record<Lane, number>;

  constructor(private readonly options: ReaderPoolOptions) {
    const slot = (lane: Lane): Slot => ({
      lane,
      worker: null,
      state: 'down',
      threadId: null,
      job: null,
      jobId: 0,
      startedAt: 0,
      cpuAtStart: null,
      stopping: null,
      died: null,
      ocrCalls: new Map(),
      failedStarts: 0,
    });
    this.slots = [
      ...Array.from({ length: Math.max(1, options.threads.request) }, () => slot('request')),
      ...Array.from({ length: Math.max(1, options.threads.background) }, () => slot('background')),
    ];
    this.niceness = { ...DEFAULT_NICENESS, ...options.niceness };
  }

  /** Reads the bytes on a thread of the lane; a request read throws ExtractionDeferred at once when no request thread is free. */
  run(
    lane: Lane,
    read: ReadOp,
    control: { signal?: AbortSignal; wallLimitMs?: number } = {},
  ): Promise<ExtractedText | boolean> {
    if (this.closed) return Promise.reject(new BackendUnavailableError('the file readers are closed'));
    if (control.signal?.aborted) return Promise.reject(control.signal.reason);
    if (lane === 'request' && !this.hasFreeThread('request')) return Promise.reject(new ExtractionDeferred());
    return new Promise((resolve, reject) => {
      const job: Job = {
        lane,
        read,
        exclusive: false,
        signal: control.signal,
        wallLimitMs: control.wallLimitMs ?? this.options.limits.timeBudgetMs + STOP_GRACE_MS,
        resolve,
        reject,
        detach: () => undefined,
      };
      if (control.signal) {
        const onAbort = () => this.abort(job, control.signal!.reason);
        control.signal.addEventListener('abort', onAbort, { once: true });
        job.detach = () => control.signal!.removeEventListener('abort', onAbort);
      }
      this.queues[lane].push(job);
      this.pump();
    });
  }

  /** Whether a request read can start now (sniffing asks before it sends the bytes). */
  hasFreeThread(lane: Lane): boolean {
    if (this.exclusiveRunning()) return false;
    const waiting = this.queues[lane].length;
    // A thread being stopped is free in a moment: its replacement starts when it is gone.
    const free = (s: Slot) =>
      s.state === 'idle' || s.state === 'down' || s.state === 'stopping' || (s.state === 'starting' && !s.job);
    return this.slots.filter((s) => s.lane === lane && free(s)).length > waiting;
  }

  /** Starts one thread of the lane now, so the first read does not wait for it (the server warms a request thread at start). */
  warm(lane: Lane): void {
    const slot = this.slots.find((s) => s.lane === lane && s.state === 'down');
    if (slot && !this.closed) this.start(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lane of ['request', 'background'] as const) {
      for (const job of this.queues[lane].splice(0))
        this.settle(job, new BackendUnavailableError('the file readers are closing'));
    }
    await Promise.all(this.slots.map((slot) => this.stop(slot, 'closed')));
    this.stopWatching();
  }

  /** Live threads and reads running, for health and tests. */
  state(): { threads: number; running: number; queued: number } {
    return {
      threads: this.slots.filter((s) => s.state !== 'down').length,
      running: this.slots.filter((s) => s.state === 'busy').length,
      queued: this.queues.request.length + this.queues.background.length,
    };
  }

  private exclusiveRunning(): boolean {
    return this.slots.some((s) => s.state === 'busy' && s.job?.exclusive);
  }

  /** Hands queued reads to free threads; an exclusive read waits until nothing else runs, and runs alone. */
  private pump(): void {
    if (this.closed || this.exclusiveRunning()) return;
    const head = this.queues.background[0];
    if (head?.exclusive) {
      // Alone means alone: nothing running, nothing being stopped (its memory not yet given back).
      if (this.slots.some((s) => s.state === 'busy' || s.state === 'stopping' || (s.state === 'starting' && s.job)))
        return;
      const slot = this.slots.find((s) => s.lane === 'background' && (s.state === 'idle' || s.state === 'down'))!;
      this.assign(slot, this.queues.background.shift()!);
      return;
    }
    for (const lane of ['request', 'background'] as const) {
      const queue = this.queues[lane];
      while (queue.length) {
        const slot =
          this.slots.find((s) => s.lane === lane && s.state === 'idle') ??
          this.slots.find((s) => s.lane === lane && s.state === 'down') ??
          this.slots.find((s) => s.lane === lane && s.state === 'starting' && !s.job);
        if (!slot) break;
        this.assign(slot, queue.shift()!);
      }
    }
  }

  private assign(slot: Slot, job: Job): void {
    slot.job = job;
    slot.jobId = this.nextJobId++;
    if (slot.state === 'idle') this.send(slot);
    else if (slot.state === 'down') this.start(slot);
    // 'starting': sent once the thread is ready.
  }

  private start(slot: Slot): void {
    slot.state = 'starting';
    const { workerUrl } = this.options;
    (workerUrl instanceof URL ? Promise.resolve(workerUrl) : workerUrl()).then(
      (url) => this.spawn(slot, url),
      (error: unknown) => {
        slot.state = 'down';
        const job = slot.job;
        slot.job = null;
        this.failedStart(slot, error instanceof Error ? error : new Error(String(error)), job);
      },
    );
  }

  private spawn(slot: Slot, url: URL): void {
    if (this.closed) {
      slot.state = 'down';
      return;
    }
    const data: ReaderThreadData = {
      mode: this.options.mode,
      limits: this.options.limits,
      pdfOcr: Boolean(this.options.pdfOcr),
      nice: this.niceness[slot.lane],
    };
    const worker = new Worker(url, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: this.options.limits.maxHeapMb, maxYoungGenerationSizeMb: 16 },
      // Not the server's loader flags (tsx under `npm start`): a reader loads plain JavaScript, and a loader on every module costs seconds for pdf.js.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    slot.worker = worker;
    slot.state = 'starting';
    slot.stopping = null;
    slot.died = null;
    slot.threadId = null;
    worker.on('message', (message: FromReader) => this.onMessage(slot, worker, message));
    worker.on('error', (error) => {
      if (slot.worker === worker) slot.died = error;
    });
    worker.on('exit', () => this.onExit(slot, worker));
  }

  private send(slot: Slot): void {
    const job = slot.job!;
    slot.state = 'busy';
    slot.startedAt = Date.now();
    slot.cpuAtStart = slot.threadId === null ? null : threadCpuMs(slot.threadId);
    slot.worker!.ref();
    if (!this.watchdog) this.startWatching();
    // The reader gets its own copy: the caller keeps its bytes (to store them), and a transfer costs nothing more.
    const bytes = new Uint8Array(job.read.bytes);
    const message: ToReader = { type: 'read', id: slot.jobId, ...job.read, bytes };
    slot.worker!.postMessage(message, [bytes.buffer as ArrayBuffer]);
  }

  private onMessage(slot: Slot, worker: Worker, message: FromReader): void {
    if (slot.worker !== worker) return;
    switch (message.type) {
      case 'ready':
        slot.threadId = message.threadId;
        slot.failedStarts = 0;
        slot.state = 'idle';
        if (slot.job) this.send(slot);
        else {
          worker.unref();
          this.pump();
        }
        return;
      case 'done': {
        if (message.id !== slot.jobId || !slot.job) return;
        const job = slot.job;
        this.release(slot);
        this.settle(job, message.error ? fromWire(message.error) : null, message.value);
        // V8 keeps the heap a big read grew to: a thread left holding more than it needs idle is replaced, giving the memory back.
        if (message.heapBytes > (this.options.recycleAboveBytes ?? DEFAULT_RECYCLE_ABOVE_BYTES))
          void this.stop(slot, 'recycled');
        this.pump();
        return;
      }
      case 'ocr':
      case 'pdf-ocr':
        this.serveOcr(slot, worker, message);
        return;
      case 'ocr-cancel':
        slot.ocrCalls.get(message.call)?.abort(new Error('the reader no longer needs this page'));
        slot.ocrCalls.delete(message.call);
        return;
    }
  }

  /** OCR runs here, in the engine every reader shares; its answer goes back to the thread that asked. */
  private serveOcr(slot: Slot, worker: Worker, message: Extract<FromReader, { type: 'ocr' | 'pdf-ocr' }>): void {
    const controller = new AbortController();
    slot.ocrCalls.set(message.call, controller);
    const work =
      message.type === 'ocr'
        ? this.options.ocr
          ? this.options.ocr.recognize(message.image, { signal: controller.signal }).then((result) => ({ result }))
          : Promise.reject(new CaptureRejected('unsupported_type', 'OCR is not available here'))
        : this.options.pdfOcr
          ? this.options.pdfOcr.readPdf(message.pdf, { signal: controller.signal }).then(({ pages }) => ({ pages }))
          : Promise.reject(new CaptureRejected('unsupported_type', 'OCR of whole PDFs is not available here'));
    work
      .then(
        (reply) => ({ type: 'ocr-reply' as const, call: message.call, ...reply }),
        (error: unknown) => ({ type: 'ocr-reply' as const, call: message.call, error: toWire(error) }),
      )
      .then((reply) => {
        if (slot.ocrCalls.get(message.call) !== controller) return; // cancelled, or the thread is gone
        slot.ocrCalls.delete(message.call);
        if (slot.worker === worker) worker.postMessage(reply satisfies ToReader);
      });
  }

  private onExit(slot: Slot, worker: Worker): void {
    if (slot.worker !== worker) return;
    const job = slot.job;
    const died = slot.died;
    const wasStarting = slot.state === 'starting';
    const stopping = slot.stopping;
    this.cancelOcr(slot);
    slot.worker = null;
    slot.state = 'down';
    slot.job = null;
    slot.threadId = null;
    if (stopping) {
      // The supervisor stopped it and has settled its read; reads may be waiting for this slot.
      this.pump();
      return;
    }
    if (wasStarting && !(died && isOutOfMemory(died))) {
      this.failedStart(slot, died ?? new Error('the thread exited'), job);
      return;
    }
    if (job) {
      const error =
        died && isOutOfMemory(died)
          ? this.memoryReject()
          : new CaptureRejected('extraction_failed', 'the file stopped its reader (the reading thread crashed on it)');
      this.options.log?.('a file reader thread died', { error: died?.message ?? 'exited', lane: slot.lane });
      this.settle(job, error);
    }
    this.pump();
  }

  /** A thread that could not start fails the read given to it as retryable (the queue tries again later), and reads waiting for the lane alike. */
  private failedStart(slot: Slot, error: Error, job: Job | null): void {
    slot.failedStarts += 1;
    this.options.log?.('a file reader thread could not start', {
      error: error.message,
      failedStarts: slot.failedStarts,
    });
    const unavailable = () => new BackendUnavailableError(`the file readers cannot start: ${error.message}`, 5);
    if (job) this.settle(job, unavailable());
    for (const waiting of this.queues[slot.lane].splice(0)) this.settle(waiting, unavailable());
  }

  private startWatching(): void {
    this.baselineRss = process.memoryUsage.rss();
    this.watchdog = setInterval(() => this.watch(), this.options.watchIntervalMs ?? 50);
    this.watchdog.unref();
  }

  private stopWatching(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** The limits, checked from outside the reading threads (which may be stuck in synchronous code). */
  private watch(): void {
    const busy = this.slots.filter((s) => s.state === 'busy');
    if (!busy.length) {
      this.stopWatching();
      return;
    }
    const rss = process.memoryUsage.rss();
    const { memoryGrowthBytes, memoryCeilingBytes } = this.options;
    if (rss - this.baselineRss > memoryGrowthBytes || (memoryCeilingBytes !== undefined && rss > memoryCeilingBytes)) {
      this.options.log?.('file reads stopped: the process went over its memory limit', {
        rssMiB: Math.round(rss / MiB),
        reads: busy.length,
      });
      this.stopForMemory(busy);
      return;
    }
    const now = Date.now();
    for (const slot of busy) {
      const job = slot.job!;
      if (now - slot.startedAt > job.wallLimitMs) {
        void this.stop(slot, 'time');
        continue;
      }
      if (slot.threadId !== null && slot.cpuAtStart !== null) {
        const cpu = threadCpuMs(slot.threadId);
        if (cpu !== null && cpu - slot.cpuAtStart > this.options.limits.cpuBudgetMs) void this.stop(slot, 'cpu');
      }
    }
  }

  /**
   * Stops every running read. One that ran alone is the one that needed the
   * memory: it fails. Beside others, any of them may be: a background read
   * runs again alone; a request's read is deferred to the queue (which
   * reads it alone if it comes to that).
   */
  private stopForMemory(busy: Slot[]): void {
    const alone = busy.length === 1;
    for (const slot of busy) {
      const job = slot.job!;
      void this.stop(slot, 'memory', false);
      if (alone || job.exclusive) this.settle(job, this.memoryReject());
      else if (job.lane === 'request')
        this.settle(job, new ExtractionDeferred('reads stopped for memory; queued to be read alone'));
      else {
        job.exclusive = true;
        this.queues.background.unshift(job);
      }
    }
    this.pump();
  }

  private abort(job: Job, reason: unknown): void {
    const queue = this.queues[job.lane];
    const queued = queue.indexOf(job);
    if (queued >= 0) {
      queue.splice(queued, 1);
      this.settle(job, reason instanceof Error ? reason : new Error(String(reason)));
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) void this.stop(slot, 'aborted');
  }

  /** Terminates a thread; its read (unless `settleJob` is false) is settled with the reason. */
  private async stop(slot: Slot, reason: StopReason, settleJob = true): Promise<void> {
    const { worker, job } = slot;
    if (!worker) return;
    slot.stopping = reason;
    slot.state = 'stopping';
    this.cancelOcr(slot);
    slot.job = null;
    if (job && settleJob) {
      const error =
        reason === 'cpu'
          ? new CaptureRejected(
              'too_large',
              `reading the file took more than ${seconds(this.options.limits.cpuBudgetMs)} of processor time (the extraction limit)`,
            )
          : reason === 'time'
            ? new CaptureRejected(
                'too_large',
                `reading the file took more than ${seconds(job.wallLimitMs)} (the extraction time limit)`,
              )
            : reason === 'memory'
              ? this.memoryReject()
              : reason === 'aborted'
                ? job.signal?.reason instanceof Error
                  ? job.signal.reason
                  : new Error('the read was cancelled')
                : new BackendUnavailableError('the file readers are closing');
      if (reason !== 'aborted' && reason !== 'closed' && reason !== 'recycled')
        this.options.log?.('a file read was stopped', { reason, lane: slot.lane });
      this.settle(job, error);
    }
    await worker.terminate().catch(() => undefined);
    this.pump();
  }

  private memoryReject(): CaptureRejected {
    const growth = Math.round(this.options.memoryGrowthBytes / MiB);
    return new CaptureRejected(
      'too_large',
      `reading the file needed more memory than the extraction limit (${this.options.limits.maxHeapMb} MiB of heap, ${growth} MiB in all)`,
    );
  }

  private release(slot: Slot): void {
    slot.job = null;
    slot.state = 'idle';
    slot.worker?.unref();
  }

  private cancelOcr(slot: Slot): void {
    for (const controller of slot.ocrCalls.values()) controller.abort(new Error('the read stopped'));
    slot.ocrCalls.clear();
  }

  private settle(job: Job, error: Error | null, value?: ExtractedText | boolean): void {
    job.detach();
    if (error) job.reject(error);
    else job.resolve(value!);
  }
}

const isOutOfMemory = (error: Error) => (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
