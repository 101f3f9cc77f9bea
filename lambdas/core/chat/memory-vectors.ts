import type { LibraryRef } from '../model.js';
import type { BackgroundWork, Clock, DeferredVectorIndex, Embedder } from '../ports.js';
import type { UsageService } from '../usage.js';

/** How a chat answers before its reply is embedded: an index that takes vectors later, and a runner for the work. */
export interface DeferredVectors {
  index: DeferredVectorIndex;
  background: BackgroundWork;
}

/** An item written without vectors: its passages' texts, in order. */
export interface PendingVectors {
  ref: LibraryRef;
  itemId: string;
  texts: readonly string[];
}

/** What attaching vectors later needs: the index, the embedder, and the ledger its tokens are charged to. */
export interface PendingVectorDeps {
  index: DeferredVectorIndex;
  embedder: Embedder;
  spend: Pick<UsageService, 'recordEmbedding'>;
  clock: Clock;
}

/**
 * Embeds items written without vectors (a chat's reply and creations) and
 * attaches the vectors to those still there (passage ordinals follow the
 * texts' order). An item erased meanwhile gets nothing (attachPassageVectors
 * writes nothing for it). The chat answered before this ran, so its
 * tokens_used could not hold these tokens: they are charged here, to each
 * item's tenant (one embedding call per tenant, as its tokens are per call).
 */
export async function attachPendingVectors(deps: PendingVectorDeps, items: readonly PendingVectors[]): Promise<void> {
  const byTenant = new Map<string, PendingVectors[]>();
  for (const item of items) byTenant.set(item.ref.tenantId, [...(byTenant.get(item.ref.tenantId) ?? []), item]);
  for (const [tenantId, own] of byTenant) {
    const { vectors, tokens } = await deps.embedder.embed(
      own.flatMap((item) => item.texts),
      'passage',
    );
    let offset = 0;
    for (const item of own) {
      const mine = vectors.slice(offset, offset + item.texts.length);
      await deps.index.attachPassageVectors(
        item.ref,
        item.itemId,
        mine.map((vector, ordinal) => ({ ordinal, vector })),
      );
      offset += item.texts.length;
    }
    await deps.spend.recordEmbedding({ tenantId, at: deps.clock.now(), tokens });
  }
}

/**
 * Gives vectors to the items whose background embedding never finished (it
 * failed, or the process stopped between a chat's answer and its reply's
 * vectors), so they are found by meaning again. Run at start-up; returns how
 * many it mended.
 */
export async function attachMissingVectors(deps: PendingVectorDeps): Promise<number> {
  const pending = await deps.index.itemsWithoutVectors();
  // In modest batches: a long-stopped process may have left many.
  for (let i = 0; i < pending.length; i += 32) await attachPendingVectors(deps, pending.slice(i, i + 32));
  return pending.length;
}
