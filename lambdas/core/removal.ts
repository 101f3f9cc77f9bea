import type { BlobStore, DocumentStore, SearchIndex } from '../ports.js';
import type { DocumentRecord, LibraryRef } from './model.js';

export interface RemovalDeps {
  documents: DocumentStore;
  index: SearchIndex;
  blobs: BlobStore;
}

const refOf = (doc: DocumentRecord): LibraryRef => ({ tenantId: doc.tenantId, endUserId: doc.endUserId });

/**
 * Removes a document everywhere: index entries first, so nothing stays
 * findable, then its bytes, then its record. Every step is idempotent, so a
 * removal cut off part-way can simply run again.
 */
export async function removeDocument(deps: RemovalDeps, doc: DocumentRecord): Promise<void> {
  const ref = refOf(doc);
  await deps.index.remove(ref, doc.id);
  if (doc.blobKey) await deps.blobs.delete(doc.blobKey);
  await deps.documents.delete(ref, doc.id);
}
