import type { FilterSubject } from './filter.js';
import type { DocumentKind, DocumentRecord, IndexItem, ItemKind } from './model.js';

/** The search result kind a document's passages have. */
export const itemKindOf = (kind: DocumentKind): ItemKind => (kind === 'image' ? 'image' : 'file_excerpt');

/** What a filter reads of a document record (the document list; DynamoDB evaluates it with matchesFilter). */
export const documentSubject = (doc: DocumentRecord): FilterSubject => ({
  metadata: doc.metadata,
  source_ref: doc.sourceRef,
  title: doc.title,
  kinds: [doc.kind, itemKindOf(doc.kind)],
  content_type: doc.contentType,
  created_at: doc.createdAt,
  content_date: doc.createdAt,
});

/** What a filter reads of an index item: a document's as above; a chat's or creation's metadata is {}. */
export const itemSubject = (
  item: Pick<IndexItem, 'kind' | 'title' | 'sourceRef' | 'contentDate' | 'metadata' | 'documentKind' | 'contentType'>,
): FilterSubject => ({
  metadata: item.metadata ?? {},
  source_ref: item.sourceRef,
  title: item.title,
  kinds: item.documentKind ? [item.documentKind, item.kind] : [item.kind],
  content_type: item.contentType ?? null,
  created_at: item.contentDate,
  content_date: item.contentDate,
});
