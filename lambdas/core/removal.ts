import { type BlobDeletion, documentBlobs } from './bucket/document-blobs.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { BlobStore, CallerBuckets, Clock, DocumentStore, SearchIndex } from './ports.js';

export interface RemovalDeps {
  documents: DocumentStore;
  index: SearchIndex;
  blobs: BlobStore;
  buckets?: CallerBuckets;
  clock?: Clock;
}

const refOf = (doc: DocumentRecord): LibraryRef => ({ tenantId: doc.tenantId, endUserId: doc.endUserId });

/**
 * Removes a document everywhere: index entries first, so nothing stays
 * findable, then its bytes, then its record, then its index entries once
 * more. The last pass removes an entry a worker wrote while this ran: a
 * writer checks that the record is still there after it writes
 * (core/generations.ts), so a write it kept came before the record went,
 * and this pass sees it. Every step is idempotent, so a removal cut off
 * part-way can simply run again (the record goes last but one).
 */
export async function removeDocument(deps: RemovalDeps, doc: DocumentRecord): Promise<BlobDeletion> {
  const ref = refOf(doc);
  await deps.index.remove(ref, doc.id);
  const blob = await documentBlobs(deps).delete(doc);
  await deps.documents.delete(ref, doc.id);
  await deps.index.remove(ref, doc.id);
  return blob;
}
