import type { BlobStore, DocumentStore, SearchIndex } from '../ports.js';
import { decodeCursor, fingerprint, keysetPage, type Page } from './cursor.js';
import { notFound } from './errors.js';
import type { LibraryRef } from './model.js';

export interface EndUserView {
  id: string;
  created_at: string;
  last_active_at: string;
  document_count: number;
}

export interface ErasureReport {
  id: string;
  deleted: true;
  documents_deleted: number;
  blobs_deleted: number;
  messages_deleted: number;
}

const isString = (v: unknown): v is string => typeof v === 'string';

export class EndUserService {
  constructor(private readonly deps: { documents: DocumentStore; index: SearchIndex; blobs: BlobStore }) {}

  /** End users of one tenant, in order of id. */
  async list(tenantId: string, request: { limit: number; cursor?: string }): Promise<Page<EndUserView>> {
    const scope = fingerprint(['end-users', tenantId]);
    const after = decodeCursor(request.cursor, scope, isString);
    const users = await this.deps.documents.listEndUsers(tenantId, { limit: request.limit + 1, after });
    const view = (u: (typeof users)[number]): EndUserView => ({ id: u.id, created_at: u.createdAt, last_active_at: u.lastActiveAt, document_count: u.documentCount });
    return keysetPage(users, request.limit, scope, view, (u) => u.id);
  }

  /**
   * Erases an end user's library: index entries (passages, vectors, text,
   * chats, creations) first so nothing stays findable, then blobs, then records.
   * Safe to run again after a crash part-way: every step is idempotent.
   */
  async erase(tenantId: string, endUserId: string): Promise<ErasureReport> {
    const ref: LibraryRef = { tenantId, endUserId };
    if (!(await this.deps.documents.libraryExists(ref))) throw notFound(`end user ${endUserId} not found`);
    const docs = await this.deps.documents.listAll(ref);
    const removed = await this.deps.index.removeLibrary(ref);
    let blobsDeleted = 0;
    for (const doc of docs) {
      if (!doc.blobKey) continue;
      await this.deps.blobs.delete(doc.blobKey);
      blobsDeleted += 1;
    }
    await this.deps.documents.deleteLibrary(ref);
    return {
      id: endUserId,
      deleted: true,
      documents_deleted: docs.length,
      blobs_deleted: blobsDeleted,
      messages_deleted: removed.chat,
    };
  }
}
