import { availableParallelism } from 'node:os';
import { EmbedderPool } from '../../adapters/local/embedder-pool.js';
import { parseEmbedder } from '../../adapters/local/embedder-record.js';
import {
  OpenAiCompatibleEmbedder,
  type OpenAiEmbedderConfig,
  openAiEmbedderName,
} from '../../adapters/local/openai-compatible-embedder.js';
import { logger } from '../../http/observability.js';

/** Requests to an embeddings server in flight at once from the ingestion drain. */
const HTTP_LANES = 4;

export interface LocalEmbedder {
  /** The embedder, with its own health check. */
  embedder: OpenAiCompatibleEmbedder | EmbedderPool;
  /** The offline model's pool, when it runs (it also counts the offline answerer's tokens). */
  pool: EmbedderPool | null;
  /** Embedding steps worth running at once: two per passage thread, or a few requests to a server. */
  lanes: number;
  close(): Promise<void>;
}

/**
 * The local stack's embedder: an OpenAI-compatible embeddings server when
 * one is configured (LIBRARY_EMBED_URL, LIBRARY_EMBED_MODEL), else the
 * offline model's worker threads: one for queries, and one per core (up
 * to 2) for passages, at low priority so requests come first.
 */
export async function startLocalEmbedder(
  server: OpenAiEmbedderConfig | null | undefined,
  /** The embedder the data folder records (`name/dimensions`): a server of that model that is down at start starts degraded. */
  recorded: string | null = null,
): Promise<LocalEmbedder> {
  if (server) {
    const known = recorded ? parseEmbedder(recorded) : null;
    const embedder = await OpenAiCompatibleEmbedder.start(server, {
      knownDimensions: known?.name === openAiEmbedderName(server.model) ? known.dimensions : undefined,
      onProbeFailed: (error) =>
        logger.warn(
          'the embedding server is not answering: starting degraded with the dimensions the data folder recorded',
          { error: error.message },
        ),
    });
    return { embedder, pool: null, lanes: HTTP_LANES, close: async () => undefined };
  }
  const passageWorkers = Math.max(1, Math.min(2, availableParallelism()));
  const pool = await EmbedderPool.start({ passageWorkers });
  // Two steps per passage thread: while one step's vectors are written and its
  // next passages read (on this thread), the other's sub-batches keep the model busy.
  return { embedder: pool, pool, lanes: 2 * passageWorkers, close: () => pool.close() };
}
