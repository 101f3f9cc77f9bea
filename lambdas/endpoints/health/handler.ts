import type { KeyService } from '../../core/keys.js';
import type { Embedder } from '../../core/ports.js';
import { bearerKey } from '../../http/bearer.js';
import { eventHeader } from '../../http/cors.js';
import { createEndpoint } from '../../http/endpoint.js';
import { logger } from '../../http/observability.js';
import { contract } from './contract.js';

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
  /**
   * Checks a key presented with the call (the route has no authorizer: the
   * handler asks the tenant store as the authorizer does). Absent: every
   * caller gets the anonymous answer.
   */
  keys?: Pick<KeyService, 'authenticate'>;
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
 *
 * Without a valid key (none, or one that does not authenticate) it answers
 * only `{status, version, backend, embedder: {name, dimensions}}`: the
 * embedder's and the stores' own words can hold an internal URL or an
 * upstream error text, and the backlog tells how busy every tenant is. A
 * valid key adds them (`embedder.state`, `embedder.detail`, `ingest`,
 * `dependencies`); the operator's log gets them whenever the state changes.
 */
export const createHandler = (deps: HealthDeps) => {
  let lastLogged = JSON.stringify({ status: 'ok' });
  return createEndpoint({
    auth: contract.auth,
    async run({ event }) {
      const names = Object.keys(deps.dependencies ?? {});
      const [embedder, results, keyed] = await Promise.all([
        embedderState(deps.embedder),
        Promise.all(names.map((name) => probe(deps.dependencies![name]!))),
        presentsValidKey(deps, eventHeader(event.headers, 'authorization')),
      ]);
      const dependencies = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
      const backlog = deps.backlog ? safely(deps.backlog) : null;
      const unavailable = results.some((r) => r.state === 'failing');
      const status = unavailable ? 'unavailable' : embedder.state === 'ok' ? 'ok' : 'degraded';
      const details = {
        embedder: { state: embedder.state, detail: embedder.detail },
        ingest: backlog ? { backlog_documents: backlog.documents, backlog_passages: backlog.passages } : null,
        dependencies,
      };
      // The operator's log has the reasons anonymous callers are not told: once per change, not once per poll.
      const seen = JSON.stringify({ status, embedder: details.embedder, dependencies });
      if (seen !== lastLogged) {
        lastLogged = seen;
        const log = status === 'ok' ? logger.info : logger.warn;
        log(`health is ${status}`, { health: { status, ...details } });
      }
      const summary = {
        status,
        version: deps.version,
        backend: deps.backend,
        embedder: { name: deps.embedder.name, dimensions: deps.embedder.dimensions },
      };
      return {
        status: unavailable ? 503 : 200,
        headers: unavailable ? { 'retry-after': '5' } : undefined,
        body: keyed
          ? {
              ...summary,
              embedder: { ...summary.embedder, ...details.embedder },
              ingest: details.ingest,
              dependencies: details.dependencies,
            }
          : summary,
      };
    },
  });
};

/**
 * Whether the call carries a key the tenant store knows (active), checked
 * the way the authorizer checks it. A wrong key, or a check that fails or
 * takes too long, is an anonymous call: health answers regardless.
 */
async function presentsValidKey(deps: HealthDeps, authorization: string | undefined): Promise<boolean> {
  const key = bearerKey(authorization);
  if (!key || !deps.keys) return false;
  let tenantId: string | null = null;
  const checked = await probe(async () => {
    tenantId = await deps.keys!.authenticate(key);
  });
  return checked.state === 'ok' && tenantId !== null;
}

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
