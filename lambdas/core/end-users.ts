import { documentBlobs } from './bucket/document-blobs.js';
import { decodeCursor, fingerprint, isCursorKey, keysetPage, type Page } from './cursor.js';
import { notFound } from './errors.js';
import type { LibraryRef } from './model.js';
import type { BlobStore, CallerBuckets, Clock, ConversationStore, DocumentStore, SearchIndex } from './ports.js';

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
  /** Objects in the tenant's registered bucket not deleted yet (it refused or was unreachable): retried in the background. */
  blobs_pending: number;
}

export class EndUserService {
  constructor(
    private readonly deps: {
      documents: DocumentStore;
      index: SearchIndex;
      blobs: BlobStore;
      conversations: ConversationStore;
      buckets?: CallerBuckets;
      clock?: Clock;
    },
  ) {}

  /** End users of one tenant, in order of id. */
  async list(tenantId: string, request: { limit: number; cursor?: string }): Promise<Page<EndUserView>> {
    const scope = fingerprint(['end-users', tenantId]);
    const after = decodeCursor(request.cursor, scope, isCursorKey);
    const users = await this.deps.documents.listEndUsers(tenantId, { limit: request.limit + 1, after });
    const view = (u: (typeof users)[number]): EndUserView => ({
      id: u.id,
      created_at: u.createdAt,
      last_active_at: u.lastActiveAt,
      document_count: u.documentCount,
    });
    return keysetPage(users, request.limit, scope, view, (u) => u.id);
  }

  /**
   * Erases an end user's library, final against writes in flight (see
   * core/generations.ts and docs/api-notes.md, "Erasure"):
   *
   * 1. the library's generation ends and its document records go, in one
   *    step: from then on nothing of it is found (a read names the live
   *    generation, and there is none, or a new one), no claim, index write
   *    or worker step under it can land (each is refused or undoes itself),
   *    and a capture in flight or to come starts the library afresh;
   * 2. the index entries of the ended generation go (the index may take
   *    them a few at a time, serving other requests between: SQLite does),
   *    then every blob, then the files are scrubbed.
   *
   * A library whose record is gone but whose index still holds entries (an
   * erasure cut off between 1 and 2) is erased again rather than unknown.
   * (The index's entries went first before, in one pass: while an index
   * that removes them in steps did, the end user's captures were refused
   * 503, their generation ended in the index and not yet in the store.)
   */
  async erase(tenantId: string, endUserId: string): Promise<ErasureReport> {
    const ref: LibraryRef = { tenantId, endUserId };
    const { documents, index } = this.deps;
    const blobs = documentBlobs(this.deps);
    const generation = await documents.libraryGeneration(ref);
    const ended = await documents.deleteLibrary(ref);
    const removed = await index.removeLibrary(ref, ended.generation ?? generation);
    // A conversation lives in a generation; a turn written meanwhile under the ended one checks it after its write (core/chat/conversations.ts).
    const turns = await this.deps.conversations.removeLibrary(ref, {
      keep: await documents.libraryGeneration(ref, { readOnly: true }),
    });
    if (ended.generation === null && generation === null && !Object.values(removed).some((n) => n > 0) && turns === 0) {
      throw notFound(`end user ${endUserId} not found`);
    }
    const blobsGone = await blobs.deleteAll(tenantId, ended.documents);
    await index.scrub?.();
    return {
      id: endUserId,
      deleted: true,
      documents_deleted: ended.documents.length,
      blobs_deleted: blobsGone.deleted,
      messages_deleted: removed.chat,
      blobs_pending: blobsGone.pending,
    };
  }
}
