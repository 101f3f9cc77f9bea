import { LRUCache } from 'lru-cache';
import type { LibraryRef } from './model.js';
import type { Embedder, Embedding } from './ports.js';

/** The memory the remembered query vectors may take: about 3,000 queries of 512 dimensions. */
export const REMEMBERED_QUERIES_BYTES = 8 * 1024 * 1024;

/**
 * The vectors of the queries a library was searched with lately, so the
 * same text is embedded once: a search's next pages (each page runs the
 * search again, cursor.ts) and a question asked of search and then of chat
 * cost no second model call (15 ms with the offline model, a network round
 * trip and a paid call with a hosted one). A model gives the same vector for
 * the same text, so no answer changes: the embedding reports the tokens its
 * first call read, and usage counts what was asked, not what this saved.
 *
 * Remembered per library (tenant and end user), never across: a search
 * answering faster because another tenant asked the same text would tell
 * that they did. The same text asked at once shares one call. Only single
 * queries are remembered, and never a failed call: the next one asks the
 * model again.
 */
export class RememberedQueries {
  private readonly remembered: LRUCache<string, Promise<Embedding>>;

  constructor(maxBytes = REMEMBERED_QUERIES_BYTES) {
    this.remembered = new LRUCache({ maxSize: maxBytes });
  }

  /** The query's embedding by `embedder`, from memory when this library asked it of the same embedder lately. */
  embed(ref: LibraryRef, text: string, embedder: Embedder): Promise<Embedding> {
    const key = JSON.stringify([ref.tenantId, ref.endUserId, embedder.name, embedder.dimensions, text]);
    let embedding = this.remembered.get(key);
    if (!embedding) {
      const asked = embedder.embed([text], 'query');
      embedding = asked;
      // The key (UTF-16) and the vector beside it: what an entry holds, give or take its bookkeeping.
      this.remembered.set(key, asked, { size: key.length * 2 + embedder.dimensions * 4 + 64 });
      asked.catch(() => {
        if (this.remembered.peek(key) === asked) this.remembered.delete(key);
      });
    }
    // Each caller gets its own copy of the vector: none is shared with the next caller.
    return embedding.then(({ vectors, tokens }) => ({ vectors: vectors.map((v) => Float32Array.from(v)), tokens }));
  }
}
