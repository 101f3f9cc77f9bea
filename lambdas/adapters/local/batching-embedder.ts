import type { Embedder } from '../../ports.js';

/**
 * Coalesces concurrent embed calls into one model call: a model computes a
 * batch faster than the same texts one call at a time, and concurrent
 * captures and searches otherwise queue behind each other anyway.
 */
export class BatchingEmbedder implements Embedder {
  private queue: Array<{ texts: readonly string[]; purpose: 'query' | 'passage'; resolve: (v: Float32Array[]) => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: Embedder,
    private readonly maxBatch = 64,
  ) {}

  get name() {
    return this.inner.name;
  }
  get dimensions() {
    return this.inner.dimensions;
  }

  embed(texts: readonly string[], purpose: 'query' | 'passage'): Promise<Float32Array[]> {
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ texts, purpose, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Run after the current model call ends, taking everything queued meanwhile.
        this.running = this.running.then(() => new Promise((r) => setImmediate(r))).then(() => this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    while (this.queue.length) {
      const batch: typeof this.queue = [];
      let size = 0;
      const purpose = this.queue[0]!.purpose;
      while (
        this.queue.length &&
        this.queue[0]!.purpose === purpose &&
        (size === 0 || size + this.queue[0]!.texts.length <= this.maxBatch)
      ) {
        const next = this.queue.shift()!;
        batch.push(next);
        size += next.texts.length;
      }
      try {
        const vectors = await this.inner.embed(batch.flatMap((b) => b.texts), purpose);
        let offset = 0;
        for (const entry of batch) {
          entry.resolve(vectors.slice(offset, offset + entry.texts.length));
          offset += entry.texts.length;
        }
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
  }
}
