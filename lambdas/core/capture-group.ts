import { CallerBucketUnavailableError } from './bucket/failures.js';
import { indexWordsOfGroup, type KnownText } from './document-indexing.js';
import { type CaptureLabels, newDocumentRecord } from './document-record.js';
import { BackendUnavailableError, CaptureRejected, LibraryErasedError } from './errors.js';
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
/**
 * The longest text (UTF-8 bytes) captured in a group: a commit costs about
 * as much as a short note's own writes, nothing beside a long text's, so
 * long texts gain nothing from sharing one and would only hold the writer.
 */
export const GROUP_TEXT_BYTES = 16 * 1024;

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
  | null;

export interface GroupDeps {
  documents: DocumentStore;
  index: SearchIndex;
  queue: IngestQueue;
  blobs: BlobStore;
  spend: PipelineSpend;
  clock: Clock;
}

/** Stores that write a group at once: a claim, an index write and a queue write for all of its texts. */
export type GroupWriters = GroupDeps & {
  documents: Required<Pick<DocumentStore, 'claimMany'>>;
  index: Required<Pick<SearchIndex, 'putMany'>>;
  queue: Required<Pick<IngestQueue, 'enqueueMany'>>;
};

/** Whether these stores write groups; else a batch's items are captured alone (a group would only add waiting). */
export const writesGroups = (deps: GroupDeps): deps is GroupWriters =>
  deps.documents.claimMany !== undefined && deps.index.putMany !== undefined && deps.queue.enqueueMany !== undefined;

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
 * already, one repeating an earlier text of the group, and one whose claim
 * another capture won meanwhile are left to the usual path (which answers
 * deduped once that capture has ended, or retries a failed document). When
 * the group cannot finish (an erasure mid-way, a store down) nothing of it
 * stays and every text is left to the usual path, which gives each its own
 * receipt; an error the usual path would not turn into a receipt is thrown.
 */
export async function captureTextGroup(
  deps: GroupWriters,
  ref: LibraryRef,
  texts: readonly GroupText[],
): Promise<GroupOutcome[]> {
  const outcomes: GroupOutcome[] = texts.map(() => null);
  const claimed: Array<{ k: number; doc: DocumentRecord }> = [];
  try {
    const fresh = await freshTexts(deps, ref, texts);
    if (fresh.length < 2) return outcomes;
    // Each document its own instant, in order, as each would have alone (the clock keeps them unique).
    const stamps = fresh.map(() => deps.clock.now());
    const now = stamps[0]!;
    const docs = fresh.map((k, j) => textRecord(ref, texts[k]!, stamps[j]!));
    const generation = await deps.documents.touchLibrary(ref, now);
    const claims = await deps.documents.claimMany(docs, generation);
    for (const [j, claim] of claims.entries()) if (claim.claimed) claimed.push({ k: fresh[j]!, doc: docs[j]! });
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
    if (jobs.length) await deps.queue.enqueueMany(jobs);
    // Charged once the group stands: a group given up is charged by the items' own captures instead.
    if (jobs.length)
      await deps.spend.recordCapture({ tenantId: ref.tenantId, at: now, ocrPages: 0, captures: jobs.length });
    return outcomes;
  } catch (error) {
    await Promise.all(claimed.map(({ doc }) => removeDocument(deps, doc).catch(() => undefined)));
    if (!handedBackOn(error)) throw error;
    return texts.map(() => null);
  }
}

/** Failures the usual path answers item by item (a retry in the new generation, or a receipt): anything else is a fault. */
const handedBackOn = (error: unknown) =>
  error instanceof LibraryErasedError ||
  error instanceof BackendUnavailableError ||
  error instanceof CallerBucketUnavailableError ||
  error instanceof CaptureRejected;

/** A text push's document record (core/document-record.ts, as the usual path makes it). */
function textRecord(ref: LibraryRef, text: GroupText, now: string): DocumentRecord {
  const { kind, contentType, pageCount } = pushedText(text.text);
  const content = { sha256: text.sha256, sizeBytes: text.sizeBytes, kind, contentType, pageCount };
  return newDocumentRecord(ref, text.labels, { ...content, text: text.text, hasBytes: false }, now);
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
