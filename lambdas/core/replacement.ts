import { documentBlobs } from './bucket/document-blobs.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { NewestFirstKey } from './ports.js';
import { type RemovalDeps, removeDocument } from './removal.js';

/**
 * Replacement by source_ref (docs/api-notes.md, "Replacing a document by
 * source_ref"). A capture with `replace_source_ref` is claimed `replacing`
 * (not listed). When its text goes into the index, the same index write
 * removes the older versions' entries (core/document-indexing.ts), so search
 * and grep switch from the old version to the new one at once; then the old
 * bytes go, then the record switch (the new record listed, the old records
 * deleted), then the old index entries once more (as removeDocument does:
 * an entry a worker wrote meanwhile goes too).
 */

const PAGE = 100;

/** Sorts after every document id: a key `before` all documents created up to `createdAt`, inclusive. */
const AFTER_EVERY_ID = '~';

/** The key of everything captured up to this moment (a deduped replace removes what came before its request). */
export const upTo = (at: string): NewestFirstKey => ({ createdAt: at, id: AFTER_EVERY_ID });

/**
 * The library's documents with this source_ref captured before `before`
 * (newest-first key order), other than `keepId`, replacements still pending
 * included (an older pending replacement is an older version too).
 */
export async function olderVersions(
  deps: Pick<RemovalDeps, 'documents'>,
  ref: LibraryRef,
  sourceRef: string,
  keepId: string,
  before: NewestFirstKey,
): Promise<DocumentRecord[]> {
  const found: DocumentRecord[] = [];
  for await (const doc of versions(deps, ref, sourceRef, before)) if (doc.id !== keepId) found.push(doc);
  return found;
}

/** The library's documents with this source_ref, newest first (after `after`), pending replacements included. */
async function* versions(
  deps: Pick<RemovalDeps, 'documents'>,
  ref: LibraryRef,
  sourceRef: string,
  after?: NewestFirstKey,
): AsyncGenerator<DocumentRecord> {
  for (;;) {
    const page = await deps.documents.list(ref, { limit: PAGE, after, sourceRef, includeReplacing: true });
    yield* page;
    if (page.length < PAGE) return;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * Whether a newer capture with `doc`'s source_ref (created after it, not
 * failed) is in the library. A version is ordered by when its request came
 * (createdAt), but claimed once its bytes are stored: a file's claim can
 * land after a newer text's replacement listed the older versions, which
 * then missed it, and the file, indexed later, would stand beside the newer
 * text (an outside crash probe found such pairs: a DOCX and a text of one
 * source_ref, both listed and found). Each checks after its own claim, so
 * of two versions at least one sees the other: the newer one removes the
 * older (olderVersions), or the older one sees it is superseded.
 */
export async function supersededBy(deps: Pick<RemovalDeps, 'documents'>, doc: DocumentRecord): Promise<boolean> {
  if (doc.sourceRef === null) return false;
  const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
  const newer = (other: DocumentRecord) =>
    other.createdAt > doc.createdAt || (other.createdAt === doc.createdAt && other.id > doc.id);
  for await (const other of versions(deps, ref, doc.sourceRef)) {
    if (!newer(other)) return false; // newest first: `doc` itself and the rest are older
    if (other.status !== 'failed') return true;
  }
  return false;
}

/**
 * After the index switch: the old versions' bytes, then the record switch
 * (one step: `doc` listed, the old records gone), then their index entries
 * once more. Idempotent: the ingestion worker runs it again for a document
 * still `replacing` whose text is indexed (a process stopped in between).
 * Returns false when `doc` itself was deleted meanwhile.
 */
export async function finishReplacement(
  deps: RemovalDeps,
  doc: DocumentRecord,
  replaced: readonly DocumentRecord[],
): Promise<boolean> {
  const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
  // The tenant's registration is read once for all of them.
  await documentBlobs(deps).deleteAll(doc.tenantId, replaced);
  const stands = await deps.documents.completeReplacement(
    ref,
    doc.id,
    replaced.map((d) => d.id),
  );
  for (const old of replaced) await deps.index.remove(ref, old.id);
  return stands;
}

/** Finds the older versions of a `replacing` document whose text is indexed, and finishes its replacement. */
export async function resumeReplacement(deps: RemovalDeps, doc: DocumentRecord): Promise<number> {
  const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
  const replaced =
    doc.sourceRef === null
      ? []
      : await olderVersions(deps, ref, doc.sourceRef, doc.id, { createdAt: doc.createdAt, id: doc.id });
  await finishReplacement(deps, doc, replaced);
  return replaced.length;
}

export const replacedDetail = (count: number) =>
  `replaced ${count} older document${count === 1 ? '' : 's'} with this source_ref`;

/**
 * A deduped capture with `replace_source_ref`: the existing document is the
 * current version, so the other documents with the request's source_ref
 * captured before this request are removed, once the existing document is
 * findable by words (else a reader could find neither). Returns what to add
 * to the receipt's detail.
 */
export async function replaceByExisting(
  deps: RemovalDeps,
  existing: DocumentRecord,
  sourceRef: string,
  at: string,
): Promise<string> {
  if (existing.replacing && existing.sourceRef === sourceRef) {
    return 'it replaces the older documents with this source_ref once its text is indexed';
  }
  if (existing.passageCount === null || existing.status === 'failed') {
    return 'nothing was replaced: that document is not findable by words yet (send this capture again once it is ready)';
  }
  const ref: LibraryRef = { tenantId: existing.tenantId, endUserId: existing.endUserId };
  const older = await olderVersions(deps, ref, sourceRef, existing.id, upTo(at));
  for (const old of older) await removeDocument(deps, old);
  return replacedDetail(older.length);
}
