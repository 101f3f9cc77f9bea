import type { Filter } from '../../core/filter.js';
import type { ItemKind, PassageHit } from '../../core/model.js';
import { DOCUMENT_KINDS } from '../../core/model.js';
import { type CompiledFilter, compileFilter, metadataOf } from './sqlite-filter.js';

/**
 * The SQL fragments the SQLite search index's modules share (the kind
 * tokens of items_fts, the metadata table, where a filter reads an item's
 * fields, the document and generation conditions) and the hit row both
 * search legs read: kept apart, and written once, so the schema, the writes,
 * the legs and the grep scan cannot drift from one another.
 */

/** The token of each item kind in items_fts's `kind` column (a keyword query's kind clause matches it). */
export const KIND_TOKEN: Record<ItemKind, string> = {
  file_excerpt: 'kfile',
  image: 'kimage',
  chat: 'kchat',
  creation: 'kcreation',
};

/** One row per metadata scalar of each item (sqlite-filter.ts), scoped by library id. */
export const METADATA_TABLE = 'item_metadata';
/** Where a filter reads an item `i`'s fields: a document's as its record has them (core/filter-subject.ts). */
export const itemFilter = (filter: Filter, libraryId: number, lookup: 'set' | 'row' = 'set'): CompiledFilter =>
  compileFilter(filter, {
    metadataTable: METADATA_TABLE,
    owner: 'i.rowid',
    scope: libraryId,
    fields: {
      source_ref: 'i.source_ref',
      title: 'i.title',
      content_type: 'i.content_type',
      created_at: 'i.content_date',
      content_date: 'i.content_date',
    },
    kinds: ['i.kind', 'i.doc_kind'],
    lookup,
  });

/** SQL condition: the item is a document (DOCUMENT_KINDS). */
export const DOCUMENTS_ONLY = `kind IN (${DOCUMENT_KINDS.map((k) => `'${k}'`).join(', ')})`;
/**
 * SQL condition on items `i`, with the generation bound twice (null: any):
 * entries of the read's generation and untagged ones (ports.ts,
 * GenerationScoped). Here a second lock: put refuses an ended generation in
 * its transaction, so no entry of one is left to filter.
 */
export const IN_GENERATION = '(? IS NULL OR i.generation IS NULL OR i.generation = ?)';
export const generationParams = (generation?: string) => [generation ?? null, generation ?? null];

export interface HitRow {
  item_id: string;
  kind: ItemKind;
  title: string | null;
  source_ref: string | null;
  content_date: string;
  ordinal: number;
  line_start: number;
  line_end: number;
  text: string;
  score: number;
  metadata: string | null;
}

export const toHit = (r: HitRow): PassageHit => ({
  itemId: r.item_id,
  kind: r.kind,
  title: r.title,
  sourceRef: r.source_ref,
  contentDate: r.content_date,
  metadata: metadataOf(r.metadata),
  passage: { ordinal: r.ordinal, lineStart: r.line_start, lineEnd: r.line_end, text: r.text },
  rawScore: r.score,
});
