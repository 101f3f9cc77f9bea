import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { BackendUnavailableError } from '../../core/errors.js';
import type { OcrEngine, OcrImage, OcrResult } from '../extraction/ocr-ports.js';

/** The English model ships in @tesseract.js-data/eng: read from node_modules, never downloaded. */
const ENGLISH: { langPath: string; gzip: boolean } = createRequire(import.meta.url)('@tesseract.js-data/eng');

interface Job {
  image: OcrImage;
  signal?: AbortSignal;
  resolve(result: OcrResult): void;
  reject(error: unknown): void;
}

/**
 * Local OCR: a pool of tesseract.js workers (one per core, at most 4 by
 * default), started on first use and reused across requests. Jobs wait in one
 * queue; a job whose signal fired while it waited is dropped, not run.
 */
export class TesseractOcr implements OcrEngine {
  readonly name = 'tesseract.js';
  readonly size: number;
  private readonly idle: Worker[] = [];
  private readonly workers: Worker[] = [];
  private readonly queue: Job[] = [];
  private starting = 0;
  private closed = false;

  constructor(options: { workers?: number } = {}) {
    this.size = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
  }

  recognize(image: OcrImage, options: { signal?: AbortSignal } = {}): Promise<OcrResult> {
    if (this.closed) return Promise.reject(new BackendUnavailableError('OCR engine is shut down'));
    return new Promise<OcrResult>((resolve, reject) => {
      this.queue.push({ image, signal: options.signal, resolve, reject });
      this.pump();
    });
  }

  /** Terminates every worker; queued jobs fail as unavailable. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new BackendUnavailableError('OCR engine is shut down'));
    await Promise.all(this.workers.splice(0).map((worker) => worker.terminate().catch(() => undefined)));
    this.idle.length = 0;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0]!;
      if (job.signal?.aborted) {
        this.queue.shift();
        job.reject(job.signal.reason);
        continue;
      }
      const worker = this.idle.pop();
      if (worker) {
        this.queue.shift();
        void this.run(worker, job);
        continue;
      }
      if (this.workers.length + this.starting < this.size && this.starting < this.queue.length) this.startWorker();
      return;
    }
  }

  private async run(worker: Worker, job: Job): Promise<void> {
    try {
      const { data } = await worker.recognize(Buffer.from(job.image.png));
      job.resolve({ text: data.text, confidence: typeof data.confidence === 'number' ? data.confidence / 100 : null });
    } catch (error) {
      // The pipeline hands over PNGs it made itself: a failure here is the engine's, not the file's.
      job.reject(new BackendUnavailableError('OCR engine failed', 1, { cause: error }));
    } finally {
      if (!this.closed) {
        this.idle.push(worker);
        this.pump();
      }
    }
  }

  private startWorker(): void {
    this.starting += 1;
    createWorker('eng', OEM.LSTM_ONLY, { langPath: ENGLISH.langPath, gzip: ENGLISH.gzip, cacheMethod: 'none' })
      .then(async (worker) => {
        this.starting -= 1;
        if (this.closed) return void (await worker.terminate());
        this.workers.push(worker);
        this.idle.push(worker);
        this.pump();
      })
      .catch((error: unknown) => {
        this.starting -= 1;
        // Without a worker nothing in the queue can run: fail it as a backend outage, safe to retry.
        if (this.workers.length === 0 && this.starting === 0) {
          for (const job of this.queue.splice(0))
            job.reject(new BackendUnavailableError('OCR engine failed to start', 1, { cause: error }));
        }
      });
  }
}
