import type { Embedder } from '../../ports.js';
import { createEndpoint } from '../../http/endpoint.js';

/** An embedder that can say whether it is working (the local pool); others are taken to be. */
export interface EmbedderWithHealth extends Pick<Embedder, 'name' | 'dimensions'> {
  health?(): { state: 'ok' | 'degraded'; detail: string | null };
}

export interface HealthDeps {
  embedder: EmbedderWithHealth;
  backend: 'local' | 'aws';
  version: string;
  /** The background indexing backlog, where this process can see it (the local queue). */
  backlog?: () => { documents: number; passages: number };
}

/**
 * Health answers 200 whenever it can answer: `degraded` says a dependency
 * cannot work (captures are still stored and queued, and searches by words
 * still answer), with the detail an operator needs.
 */
export const createHandler = (deps: HealthDeps) =>
  createEndpoint({
    auth: false,
    async run() {
      const embedder = deps.embedder.health?.() ?? { state: 'ok' as const, detail: null };
      const backlog = deps.backlog?.() ?? null;
      return {
        status: 200,
        body: {
          status: embedder.state === 'ok' ? 'ok' : 'degraded',
          version: deps.version,
          backend: deps.backend,
          embedder: { name: deps.embedder.name, dimensions: deps.embedder.dimensions, state: embedder.state, detail: embedder.detail },
          ingest: backlog ? { backlog_documents: backlog.documents, backlog_passages: backlog.passages } : null,
        },
      };
    },
  });
