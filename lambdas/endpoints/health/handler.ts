import type { Embedder } from '../../ports.js';
import { createEndpoint } from '../../http/endpoint.js';

type EmbedderState = { state: 'ok' | 'degraded'; detail: string | null };

/** An embedder that can say whether it is working (the local pool, an embeddings server it asks); others are taken to be. */
export interface EmbedderWithHealth extends Pick<Embedder, 'name' | 'dimensions'> {
  health?(): EmbedderState | Promise<EmbedderState>;
}

export interface HealthDeps {
  embedder: EmbedderWithHealth;
  backend: 'local' | 'aws';
  version: string;
  /** The background indexing backlog, where this process can see it (the local queue). */
  backlog?: () => { documents: number; passages: number };
  /** Stores the service cannot serve without (the local database and blob folder): each resolves when usable. */
  dependencies?: Record<string, () => Promise<void>>;
}

/** A check that has not answered by then counts as failing: health must answer fast. */
const CHECK_TIMEOUT_MS = 2_000;

async function probe(check: () => Promise<void>): Promise<{ state: 'ok' | 'failing'; detail: string | null }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { state: 'ok', detail: null };
  } catch (error) {
    return { state: 'failing', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Health says what works. `ok`: everything. `degraded` (200): the embedder
 * cannot embed; captures are still stored and queued, words and grep still
 * answer. `unavailable` (503, Retry-After): a store the service cannot serve
 * without (the database, the blob store) is failing.
 */
export const createHandler = (deps: HealthDeps) =>
  createEndpoint({
    auth: false,
    async run() {
      const names = Object.keys(deps.dependencies ?? {});
      const [embedder, results] = await Promise.all([
        embedderState(deps.embedder),
        Promise.all(names.map((name) => probe(deps.dependencies![name]!))),
      ]);
      const dependencies = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
      const backlog = deps.backlog ? safely(deps.backlog) : null;
      const unavailable = results.some((r) => r.state === 'failing');
      const status = unavailable ? 'unavailable' : embedder.state === 'ok' ? 'ok' : 'degraded';
      return {
        status: unavailable ? 503 : 200,
        headers: unavailable ? { 'retry-after': '5' } : undefined,
        body: {
          status,
          version: deps.version,
          backend: deps.backend,
          embedder: { name: deps.embedder.name, dimensions: deps.embedder.dimensions, state: embedder.state, detail: embedder.detail },
          ingest: backlog ? { backlog_documents: backlog.documents, backlog_passages: backlog.passages } : null,
          dependencies,
        },
      };
    },
  });

/** The embedder's own word on its state; one that cannot answer in time (or throws) is degraded. */
async function embedderState(embedder: EmbedderWithHealth): Promise<EmbedderState> {
  if (!embedder.health) return { state: 'ok', detail: null };
  const checked = await probe(async () => {
    const said = await embedder.health!();
    if (said.state !== 'ok') throw new Error(said.detail ?? 'the embedder is degraded');
  });
  return checked.state === 'ok' ? { state: 'ok', detail: null } : { state: 'degraded', detail: checked.detail };
}

/** The backlog, or null when it cannot be read (the database is failing, which dependencies already says). */
function safely(read: () => { documents: number; passages: number }) {
  try {
    return read();
  } catch {
    return null;
  }
}
