import { indexWordsOfGroup, type KnownText } from './document-indexing.js';
import { type CaptureLabels, newDocumentRecord } from './document-record.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { BlobStore, Clock, DocumentStore, IngestJob, IngestQueue, SearchIndex } from './ports.js';
import { removeDocument } from './removal.js';
import type { PipelineSpend } from './usage.js';

/**
 * A batch's text pushes to one library, captured together: their claims in
 * one write, their words in one index write and their jobs in one queue
 * write, where the stores can write groups (the local store: one SQLite
 * commit each, where one item alone costs about six). Each item still gets
 * the receipt it would get alone; the group never decides a receipt it is
 * unsure of: it hands the item back to the usual path (core/capture.ts).
 */

/** Most texts captured together: a group's writes stay short, so other requests wait little for the writer. */
export const GROUP_TEXTS = 32;

/** One text push of a group, its payload already checked and hashed. */
export interface GroupText {
  text: string;
  labels: CaptureLabels;
  sha256: string;
  sizeBytes: number;
}

/** What became of one text of a group; null: it takes the usual path, alone (a duplicate, or the group gave up). */
export type GroupOutcome =
  | { status: 'created'; doc: DocumentRecord }
  /** Stored, then deleted by a deletion before its receipt: the receipt stays true. */
  | { status: 'created-then-deleted'; doc: DocumentRecord }
  | { status: 'deduped'; existing: DocumentRecord }
  | null;

export interface GroupDeps {
  documents: DocumentStore;
  index: SearchIndex;
  queue: IngestQueue;
  blobs: BlobStore;
  spend: PipelineSpend;
  clock: Clock;
}

/** Whether these stores write a group at once; else items are captured alone (a group would only add waiting). */
export const writesGroups = (deps: GroupDeps) =>
  deps.documents.claimMany !== undefined && deps.index.putMany !== undefined;

/** The text of a text push, as the index takes it. */
export function pushedText(text: string): KnownText {
  return {
    text,
    kind: 'text',
    contentType: 'text/plain; charset=utf-8',
    pageCount: null,
    ocrPages: 0,
  };
}

/**
 * Captures the texts new to the library together. A text the library holds
 * already, or one repeating an earlier text of the group, is left to the
 * usual path (which answers deduped, or retries a failed document). On any
 * failure (an erasure mid-way, a store down) nothing of the group stays and
 * every text is left to the usual path, which gives each its own receipt.
 */
export async function captureTextGroup(
  deps: GroupDeps,
  ref: LibraryRef,
  texts: readonly GroupText[],
): Promise<GroupOutcome[]> {
  const outcomes: GroupOutcome[] = texts.map(() => null);
  const fresh = await freshTexts(deps, ref, texts);
  if (fresh.length < 2) return outcomes;
  const now = deps.clock.now();
  const docs = fresh.map((k) =>
    newDocumentRecord(
      ref,
      texts[k]!.labels,
      {
        sha256: texts[k]!.sha256,
        sizeBytes: texts[k]!.sizeBytes,
        kind: 'text',
        contentType: 'text/plain; charset=utf-8',
        text: texts[k]!.text,
        pageCount: null,
        hasBytes: false,
      },
      now,
    ),
  );
  const claimed: Array<{ k: number; doc: DocumentRecord }> = [];
  try {
    const generation = await deps.documents.touchLibrary(ref, now);
    const claims = await deps.documents.claimMany!(docs, generation);
    for (const [j, claim] of claims.entries()) {
      const k = fresh[j]!;
      if (claim.claimed) claimed.push({ k, doc: docs[j]! });
      else outcomes[k] = { status: 'deduped', existing: claim.existing };
    }
    const group = claimed.map(({ k, doc }) => ({ doc, known: pushedText(texts[k]!.text) }));
    const indexed = await indexWordsOfGroup(deps, ref, group, generation);
    const jobs: IngestJob[] = [];
    for (const [j, { k, doc }] of claimed.entries()) {
      if (indexed[j] === null) {
        outcomes[k] = { status: 'created-then-deleted', doc };
        continue;
      }
      jobs.push({ tenantId: ref.tenantId, endUserId: ref.endUserId, documentId: doc.id, generation });
      outcomes[k] = { status: 'created', doc };
    }
    if (jobs.length) await (deps.queue.enqueueMany?.(jobs) ?? enqueueEach(deps.queue, jobs));
    // Charged once the group stands: a group given up is charged by the items' own captures instead.
    if (jobs.length)
      await deps.spend.recordCapture({ tenantId: ref.tenantId, at: now, ocrPages: 0, captures: jobs.length });
    return outcomes;
  } catch {
    await Promise.all(claimed.map(({ doc }) => removeDocument(deps, doc).catch(() => undefined)));
    return texts.map(() => null);
  }
}

/** The positions of the texts the library does not hold, first occurrence only. */
async function freshTexts(deps: GroupDeps, ref: LibraryRef, texts: readonly GroupText[]): Promise<number[]> {
  const seen = new Set<string>();
  const fresh: number[] = [];
  for (const [k, { sha256 }] of texts.entries()) {
    if (seen.has(sha256)) continue;
    seen.add(sha256);
    if (!(await deps.documents.findBySha256(ref, sha256))) fresh.push(k);
  }
  return fresh;
}

async function enqueueEach(queue: IngestQueue, jobs: readonly IngestJob[]): Promise<void> {
  for (const job of jobs) await queue.enqueue(job);
}
