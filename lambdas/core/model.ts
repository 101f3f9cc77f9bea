/** Domain types shared by the core, the ports and the adapters. No I/O here. */
import type { Metadata } from './metadata.js';

/** A library: the tenant's shared one (endUserId null) or one end user's. */
export interface LibraryRef {
  readonly tenantId: string;
  readonly endUserId: string | null;
}

export type DocumentKind = 'text' | 'file' | 'image';
export type DocumentStatus = 'ready' | 'processing' | 'failed';
export type Storage = 'service' | 'bucket';

export interface DocumentRecord {
  id: string;
  tenantId: string;
  endUserId: string | null;
  title: string;
  filename: string | null;
  contentType: string;
  sourceRef: string | null;
  sizeBytes: number;
  sha256: string;
  kind: DocumentKind;
  status: DocumentStatus;
  createdAt: string;
  storage: Storage;
  lineCount: number;
  pageCount: number | null;
  /** Where the raw bytes live in blob storage; null for text pushes (the text is kept by the index). */
  blobKey: string | null;
  /** Passages of its text; null until the text is known (queued extraction). The text is findable by words from then on. */
  passageCount: number | null;
  /** Passages that have their vectors (findable by meaning); equals passageCount once ready. */
  passagesEmbedded: number;
  /** Why a `failed` document failed (`reject_code: detail`); null otherwise. */
  failureReason: string | null;
  /**
   * A capture with `replace_source_ref` that has not replaced yet: true from
   * its claim until its text is indexed and the older documents with its
   * source_ref are removed (core/replacement.ts). Not listed meanwhile.
   * Absent (false) for every other document.
   */
  replacing?: boolean;
  /** The caller's metadata (core/metadata.ts); {} when none. */
  metadata: Metadata;
}

/** Kinds of searchable items. Documents are file_excerpt or image; chat and creation come from chats. */
export type ItemKind = 'file_excerpt' | 'image' | 'chat' | 'creation';
export const ITEM_KINDS: readonly ItemKind[] = ['file_excerpt', 'image', 'chat', 'creation'];
/** The kinds that are documents: what grep reads, and what chats answer from (past chats and creations are memory, not evidence). */
export const DOCUMENT_KINDS: readonly ItemKind[] = ['file_excerpt', 'image'];

/** A passage of an item's text, with the 1-based line range it covers. */
export interface Passage {
  ordinal: number;
  lineStart: number;
  lineEnd: number;
  text: string;
}

/** What the search index stores for one item (a document, a chat message, a creation). */
export interface IndexItem {
  itemId: string;
  kind: ItemKind;
  title: string | null;
  sourceRef: string | null;
  contentDate: string;
  /** The whole extracted text; grep reads it line by line. */
  text: string;
  passages: readonly Passage[];
  /** One per passage; or none yet, for an index that takes them later (DeferredVectorIndex). */
  vectors: readonly Float32Array[];
  /** A document's metadata, what filters read; absent (as {}) for chats and creations. */
  metadata?: Metadata;
  /** A document's kind (text, file, image) and content type, which filters read; absent for chats and creations. */
  documentKind?: DocumentKind;
  contentType?: string;
}

/** What PATCH /v1/documents/{id} may change of a document, in its record and its index entry alike. */
export interface DocumentChanges {
  title?: string;
  sourceRef?: string | null;
  metadata?: Metadata;
}

/** One passage found by one leg of search, best first. */
export interface PassageHit {
  itemId: string;
  kind: ItemKind;
  title: string | null;
  sourceRef: string | null;
  contentDate: string;
  passage: Passage;
  /** The leg's own score: BM25 (higher better) or cosine similarity. */
  rawScore: number;
  /** The item's metadata ({} when none): every search result and chat source carries it. */
  metadata?: Metadata;
  /**
   * Keyword leg, when the index can tell: the share of the query's term
   * weight the item holds (core/keyword-coverage.ts). Absent: taken as 1.
   */
  coverage?: number;
  /**
   * Keyword leg: found only through the words of the short memories
   * captured around it (core/memory-context.ts); it holds none of the
   * query's words itself.
   */
  viaContext?: boolean;
}

/** A document the grep scan reads, newest first. */
export interface GrepCandidate {
  itemId: string;
  title: string | null;
  sourceRef: string | null;
  contentDate: string;
  text: string;
  metadata?: Metadata;
}

export interface EndUserRecord {
  id: string;
  createdAt: string;
  lastActiveAt: string;
  documentCount: number;
}

export interface TenantRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  tenantName: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}
