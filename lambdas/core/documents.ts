import { decodeCursor, fingerprint, isNewestFirstKey, keysetPage, type Page } from './cursor.js';
import { notFound } from './errors.js';
import { type Filter, filterFingerprint } from './filter.js';
import { type Metadata, mergeMetadata } from './metadata.js';
import type { DocumentChanges, DocumentRecord, LibraryRef } from './model.js';
import type { BlobStore, CallerBuckets, Clock, DocumentStore, SearchIndex } from './ports.js';
import { removeDocument } from './removal.js';

/** A document as API.md publishes it. */
export interface DocumentView {
  id: string;
  file_id: string;
  title: string;
  filename: string | null;
  content_type: string;
  source_ref: string | null;
  size_bytes: number;
  sha256: string;
  kind: DocumentRecord['kind'];
  status: DocumentRecord['status'];
  failure_reason: string | null;
  findable_by_words: boolean;
  findable_by_meaning: boolean;
  passages: number | null;
  passages_embedded: number;
  created_at: string;
  storage: DocumentRecord['storage'];
  line_count: number;
  page_count: number | null;
  metadata: Metadata;
}

/** PATCH /v1/documents/{id}: what the caller asked to change (shapes checked by http/schemas.ts; metadata is a merge patch). */
export interface DocumentPatch {
  title?: string;
  source_ref?: string | null;
  /** Checked here (mergeMetadata), so its messages name the key. */
  metadata?: unknown;
}

export const documentView = (doc: DocumentRecord): DocumentView => ({
  id: doc.id,
  file_id: doc.id,
  title: doc.title,
  filename: doc.filename,
  content_type: doc.contentType,
  source_ref: doc.sourceRef,
  size_bytes: doc.sizeBytes,
  sha256: doc.sha256,
  kind: doc.kind,
  status: doc.status,
  failure_reason: doc.status === 'failed' ? doc.failureReason : null,
  findable_by_words: doc.status !== 'failed' && doc.passageCount !== null,
  findable_by_meaning:
    doc.status === 'ready' || (doc.passageCount !== null && doc.passagesEmbedded >= doc.passageCount),
  passages: doc.passageCount,
  passages_embedded: doc.status === 'ready' ? (doc.passageCount ?? doc.passagesEmbedded) : doc.passagesEmbedded,
  created_at: doc.createdAt,
  storage: doc.storage,
  line_count: doc.lineCount,
  page_count: doc.pageCount,
  metadata: doc.metadata,
});

/** DELETE /v1/documents/{id}: blobs_deleted and blobs_pending as DELETE /v1/end-users/{id} counts them. */
export interface DeletedDocument {
  id: string;
  deleted: true;
  blobs_deleted: number;
  blobs_pending: number;
}

export class DocumentService {
  constructor(
    private readonly deps: {
      documents: DocumentStore;
      index: SearchIndex;
      blobs: BlobStore;
      buckets?: CallerBuckets;
      clock?: Clock;
    },
  ) {}

  async list(
    ref: LibraryRef,
    request: { limit: number; cursor?: string; sourceRef?: string; filter?: Filter },
  ): Promise<Page<DocumentView>> {
    const scope = fingerprint([
      'documents',
      ref.tenantId,
      ref.endUserId,
      request.sourceRef ?? null,
      filterFingerprint(request.filter),
    ]);
    const after = decodeCursor(request.cursor, scope, isNewestFirstKey);
    const docs = await this.deps.documents.list(ref, {
      limit: request.limit + 1,
      after,
      sourceRef: request.sourceRef,
      filter: request.filter,
    });
    return keysetPage(docs, request.limit, scope, documentView, (doc) => ({ createdAt: doc.createdAt, id: doc.id }));
  }

  async get(ref: LibraryRef, id: string): Promise<DocumentView> {
    const doc = await this.deps.documents.get(ref, id);
    if (!doc) throw notFound(`document ${id} not found`);
    return documentView(doc);
  }

  /**
   * Changes a document's title, source_ref or metadata (a merge patch:
   * RFC 7396): the record, then the index entry, so once it answers search,
   * grep, the list and filters all see the change. A document still
   * `processing` whose text is not in the index yet gets the change from
   * its record when it is indexed.
   */
  async update(ref: LibraryRef, id: string, patch: DocumentPatch): Promise<DocumentView> {
    const doc = await this.deps.documents.get(ref, id);
    if (!doc) throw notFound(`document ${id} not found`);
    const changes: DocumentChanges = {};
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.source_ref !== undefined) changes.sourceRef = patch.source_ref;
    if (patch.metadata !== undefined) changes.metadata = mergeMetadata(doc.metadata, patch.metadata);
    if (!Object.keys(changes).length) return documentView(doc);
    const updated = await this.deps.documents.update(ref, id, changes);
    if (!updated) throw notFound(`document ${id} not found`);
    // The record first: indexing that read the record before this write reads it again after its own
    // (core/document-indexing.ts), so the index ends with this change whichever comes last.
    await this.deps.index.updateItem(ref, id, {
      title: updated.title,
      sourceRef: updated.sourceRef,
      metadata: updated.metadata,
    });
    return documentView(updated);
  }

  /**
   * Removes the document everywhere (see removeDocument). Its bytes in the
   * tenant's bucket are counted deleted only when the bucket deleted them;
   * otherwise pending (retried in the background: core/bucket/delete-retry.ts).
   */
  async delete(ref: LibraryRef, id: string): Promise<DeletedDocument> {
    const doc = await this.deps.documents.get(ref, id);
    if (!doc) throw notFound(`document ${id} not found`);
    const blob = await removeDocument(this.deps, doc);
    await this.deps.index.scrub?.(); // the removed text leaves the files too
    return { id, deleted: true, blobs_deleted: blob === 'deleted' ? 1 : 0, blobs_pending: blob === 'pending' ? 1 : 0 };
  }
}
