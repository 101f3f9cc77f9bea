import type { BackgroundWork, DeferredVectorIndex, Embedder } from '../../ports.js';
import type { LibraryRef } from '../model.js';

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

/**
 * Embeds items written without vectors (a chat's reply and creations) and
 * attaches the vectors to those still there (passage ordinals follow the
 * texts' order). An item erased meanwhile gets nothing (attachPassageVectors
 * writes nothing for it).
 */
export async function attachPendingVectors(deps: { index: DeferredVectorIndex; embedder: Embedder }, items: readonly PendingVectors[]): Promise<void> {
  if (!items.length) return;
  const vectors = await deps.embedder.embed(items.flatMap((item) => item.texts), 'passage');
  let offset = 0;
  for (const item of items) {
    const own = vectors.slice(offset, offset + item.texts.length);
    await deps.index.attachPassageVectors(item.ref, item.itemId, own.map((vector, ordinal) => ({ ordinal, vector })));
    offset += item.texts.length;
  }
}

/**
 * Gives vectors to the items whose background embedding never finished (it
 * failed, or the process stopped between a chat's answer and its reply's
 * vectors), so they are found by meaning again. Run at start-up; returns how
 * many it mended.
 */
export async function attachMissingVectors(deps: { index: DeferredVectorIndex; embedder: Embedder }): Promise<number> {
  const pending = await deps.index.itemsWithoutVectors();
  // In modest batches: a long-stopped process may have left many.
  for (let i = 0; i < pending.length; i += 32) await attachPendingVectors(deps, pending.slice(i, i + 32));
  return pending.length;
}
