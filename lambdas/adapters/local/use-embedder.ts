import { Worker } from 'node:worker_threads';
import type { Embedder } from '../../ports.js';

/**
 * The offline default embedder: Universal Sentence Encoder lite (512
 * dimensions), shipped inside an npm package, so it works with no internet.
 * Its vectors are unit length, so cosine similarity is their dot product.
 *
 * The model runs in a worker thread: embedding a search's query overlaps
 * with its keyword leg, and captures' embeddings never stall other requests.
 */
export class UniversalSentenceEncoder implements Embedder {
  readonly name = 'universal-sentence-encoder-lite';
  readonly dimensions = 512;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void; count: number }>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id: number; flat?: Float32Array; error?: string }) => {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      if (!this.pending.size) worker.unref();
      if (message.error !== undefined || !message.flat) return call.reject(new Error(`embedding failed: ${message.error}`));
      const flat = message.flat;
      call.resolve(Array.from({ length: call.count }, (_, i) => flat.subarray(i * this.dimensions, (i + 1) * this.dimensions)));
    });
    worker.on('error', (error) => this.failAll(error));
  }

  static async load(): Promise<UniversalSentenceEncoder> {
    const worker = new Worker(new URL('./use-worker.mjs', import.meta.url));
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    // Idle, the worker does not keep the process alive; while a call waits, it does.
    worker.unref();
    return new UniversalSentenceEncoder(worker);
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (!texts.length) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, count: texts.length });
      this.worker.ref();
      this.worker.postMessage({ id, texts: [...texts] });
    });
  }

  async close(): Promise<void> {
    this.failAll(new Error('the embedder was closed'));
    await this.worker.terminate();
  }

  private failAll(error: Error) {
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
    this.worker.unref();
  }
}
