import type { Embedder, VectorReindex } from './ports.js';

export interface ReindexProgress {
  /** Passages with the new embedder's vector. */
  done: number;
  /** Passages with a vector, old or new. */
  total: number;
}

export interface ReindexOutcome {
  /** The embedder that made the vectors before (null: the folder had none recorded). */
  from: string | null;
  /** The embedder already made every vector: nothing was done. */
  alreadyCurrent: boolean;
  /** A reindex cut off before was continued. */
  resumed: boolean;
  /** Passages embedded by this run. */
  embedded: number;
  total: number;
}

/** Passages embedded per step; each step is kept in one transaction, so a crash loses at most one. */
export const REINDEX_BATCH = 32;
/** Passes over the folder before giving up on one a running server keeps adding to faster than this embeds. */
const MAX_PASSES = 5;

/**
 * `library reindex`: re-embeds every passage that has a vector (documents,
 * chats, creations) with the configured embedder, then switches search to
 * the new vectors in one step. Resumable: each batch is durable on its own,
 * and a rerun embeds only what is missing. Passages without vectors yet
 * (queued documents, a reply cut off by a crash) are left to the ingestion
 * queue and the start-up mending, which will use the new embedder. The
 * tokens spent are the operator's, not a tenant's: nothing is charged.
 */
export async function reindexLibrary(
  deps: { store: VectorReindex; embedder: Embedder },
  options: { batch?: number; onProgress?: (progress: ReindexProgress) => void } = {},
): Promise<ReindexOutcome> {
  const { store, embedder } = deps;
  const size = Math.max(1, options.batch ?? REINDEX_BATCH);
  const begun = await store.begin({ name: embedder.name, dimensions: embedder.dimensions });
  const outcome = {
    from: begun.from,
    alreadyCurrent: begun.current,
    resumed: begun.resumed,
    embedded: 0,
    total: begun.total,
  };
  if (begun.current) return outcome;
  let done = begun.done;
  options.onProgress?.({ done, total: outcome.total });
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    for (let after = 0; ; ) {
      const batch = await store.pending(after, size);
      if (!batch.length) break;
      const { vectors } = await embedder.embed(
        batch.map((p) => p.text),
        'passage',
      );
      await store.keep(batch.map((p, i) => ({ ...p, vector: vectors[i]! })));
      after = batch[batch.length - 1]!.id;
      outcome.embedded += batch.length;
      done += batch.length;
      // Passages a running server adds meanwhile grow the total.
      outcome.total = Math.max(outcome.total, done);
      options.onProgress?.({ done, total: outcome.total });
    }
    if (await store.finish()) return outcome;
  }
  throw new Error(
    `the library kept changing during ${MAX_PASSES} passes; run the reindex again (it continues) with the server stopped`,
  );
}
