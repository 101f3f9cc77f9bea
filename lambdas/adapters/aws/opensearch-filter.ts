import type { Condition, Filter, FilterScalar } from '../../core/filter.js';
import { canonicalDate } from '../../core/filter.js';
import type { Metadata } from '../../core/metadata.js';
import type { DocumentChanges, IndexItem } from '../../core/model.js';

/**
 * Filters (core/filter.ts) on OpenSearch: the fields every filtered document
 * carries, and the translation of a Filter tree into query DSL that matches
 * exactly the documents `matchesFilter(itemSubject(item), filter)` accepts.
 *
 * ## Why these fields (the mapping's growth is bounded)
 *
 * Metadata keys are the callers' own (32 per document, any name), across
 * every tenant: a field per key (dynamic object mapping) would grow the
 * mapping without bound and soon hit `index.mapping.total_fields.limit`. So
 * metadata lives in three fixed keyword fields, whatever the keys:
 *
 * - `meta_keys`: the keys present (`exists`);
 * - `meta_types`: `key\0t` per key, t its type: `s` string or array of strings
 *   (an array is a string's type for the filter rules), `n` number, `b`
 *   boolean. `ne`/`nin` need it: they match a present key only of the value's type;
 * - `meta_kv`: one term per value, `key\0t\0value`, and the value encoded so
 *   that a term range over it is a range over the values:
 *   - `s`: a string, and each element of an array (so `eq`/`in` match any
 *     element, `prefix` any element starting with it);
 *   - `b`: `true` or `false`;
 *   - `n`: the number as 16 hex digits of its IEEE 754 bits, sign-flipped
 *     (negatives inverted), -0 read as 0: byte order of the terms is numeric
 *     order, and equal numbers have equal terms;
 *   - `d`: a scalar string that is an ISO 8601 date, in canonicalDate form
 *     (fixed width: byte order is time order, the very string comparison the
 *     reference makes), written beside its `s` term.
 *   A key holds one scalar at most, so the terms `key\0n\0…` (or `key\0d\0…`)
 *   of a document are at most one, and a keyword `range` over
 *   [`key\0n\0<lo>`, `key\0n\x01`) is exactly "this key's number is in range";
 *   it finds nothing for another type (a number bound never meets a string).
 *
 * Not `nested` (`[{k, n}]`): a hidden Lucene document per key and a join per
 * condition, inside every k-NN filter, for what one term range does. Not
 * `flat_object` (OpenSearch's flattened): its values are strings, so a
 * numeric range compares them as text ("10" < "9"). The `metadata` object
 * itself is kept for reading back only (`enabled: false`: never parsed, adds
 * no field).
 *
 * The document fields filters read get keyword fields of their own, because
 * the older indices map `title` as analyzed text or an unindexed keyword and
 * `source_ref` unindexed (neither can change in place): `title_kw`,
 * `source_ref_kw`, `doc_kind` (text, file, image; `kind` is the item kind),
 * `content_type`. `content_date` (already a keyword, in the service's
 * canonical UTC form) serves both created_at and content_date.
 *
 * The range and prefix queries on keyword fields need
 * `search.allow_expensive_queries` (true by default, on Amazon OpenSearch
 * Service too). Their cost is the terms of that key (and type) in the shard;
 * the tenant and library filters they always sit beside narrow the documents.
 */

/** The fields a filter reads, added to both indices (and to older indices' mappings by ensureIndices). */
export const FILTER_FIELDS = {
  /** The caller's metadata, returned with hits and grep candidates; not indexed (see above). */
  metadata: { type: 'object', enabled: false },
  meta_keys: { type: 'keyword' },
  meta_types: { type: 'keyword' },
  meta_kv: { type: 'keyword' },
  title_kw: { type: 'keyword' },
  source_ref_kw: { type: 'keyword' },
  doc_kind: { type: 'keyword' },
  content_type: { type: 'keyword' },
} as const;

/** The fields derived for filters only, left out of search responses. */
export const DERIVED_FILTER_FIELDS = [
  'meta_keys',
  'meta_types',
  'meta_kv',
  'title_kw',
  'source_ref_kw',
  'doc_kind',
  'content_type',
] as const;

type TypeTag = 's' | 'n' | 'b';
const tagOf = (value: FilterScalar): TypeTag =>
  typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b';

/** A number as 16 hex digits whose byte order is numeric order (-0 as 0). */
export function sortableNumber(value: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value === 0 ? 0 : value);
  if (bytes[0]! & 0x80) for (let i = 0; i < 8; i++) bytes[i] = ~bytes[i]! & 0xff;
  else bytes[0] = bytes[0]! ^ 0x80;
  return bytes.toString('hex');
}

const SEP = '\u0000';
/** Every `key\0t\0…` term of one key and type starts with this; all of them sort below `typeEnd`. */
const typeStart = (key: string, tag: TypeTag | 'd') => `${key}${SEP}${tag}${SEP}`;
const typeEnd = (key: string, tag: TypeTag | 'd') => `${key}${SEP}${tag}\u0001`;
const typeTerm = (key: string, tag: TypeTag) => `${key}${SEP}${tag}`;

/** The `meta_kv` term of one scalar value of a key. */
export function valueTerm(key: string, value: FilterScalar): string {
  const tag = tagOf(value);
  return typeStart(key, tag) + (tag === 'n' ? sortableNumber(value as number) : String(value));
}

/** The indexed metadata fields of a document (see the comment at the top). */
export function metadataFields(metadata: Metadata | undefined): {
  metadata: Metadata;
  meta_keys: string[];
  meta_types: string[];
  meta_kv: string[];
} {
  const meta = metadata ?? {};
  const keys = Object.keys(meta);
  const kv: string[] = [];
  const types: string[] = [];
  for (const key of keys) {
    const value = meta[key]!;
    if (Array.isArray(value)) {
      types.push(typeTerm(key, 's'));
      for (const element of new Set(value)) kv.push(valueTerm(key, element));
      continue;
    }
    types.push(typeTerm(key, tagOf(value)));
    kv.push(valueTerm(key, value));
    const date = typeof value === 'string' ? canonicalDate(value) : null;
    if (date !== null) kv.push(typeStart(key, 'd') + date);
  }
  return { metadata: meta, meta_keys: keys, meta_types: types, meta_kv: kv };
}

/** The filter fields of an item's documents (its item document and every passage document). */
export function filterFields(
  item: Pick<IndexItem, 'title' | 'sourceRef' | 'metadata' | 'documentKind' | 'contentType'>,
): Record<string, unknown> {
  return {
    ...metadataFields(item.metadata),
    ...(item.title !== null ? { title_kw: item.title } : {}),
    ...(item.sourceRef !== null ? { source_ref_kw: item.sourceRef } : {}),
    ...(item.documentKind ? { doc_kind: item.documentKind } : {}),
    ...(item.contentType !== undefined ? { content_type: item.contentType } : {}),
  };
}

/** What a change (PATCH) sets and removes on every document of an item: the stored fields and their filter fields alike. */
export function changedFields(changes: DocumentChanges): { set: Record<string, unknown>; remove: string[] } {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  if (changes.title !== undefined) Object.assign(set, { title: changes.title, title_kw: changes.title });
  if (changes.sourceRef !== undefined) {
    set.source_ref = changes.sourceRef;
    if (changes.sourceRef === null) remove.push('source_ref_kw');
    else set.source_ref_kw = changes.sourceRef;
  }
  if (changes.metadata !== undefined) Object.assign(set, metadataFields(changes.metadata));
  return { set, remove };
}

// ---- the translation

type Query = Record<string, unknown>;
const MATCH_ALL: Query = { match_all: {} };
const MATCH_NONE: Query = { match_none: {} };
const not = (query: Query): Query => ({ bool: { must_not: [query] } });
const anyOf = (queries: Query[]): Query =>
  queries.length === 1 ? queries[0]! : { bool: { should: queries, minimum_should_match: 1 } };
const allOf = (queries: Query[]): Query => (queries.length === 1 ? queries[0]! : { bool: { filter: queries } });
const term = (field: string, value: string): Query => ({ term: { [field]: value } });
const terms = (field: string, values: string[]): Query => ({ terms: { [field]: values } });
const exists = (field: string): Query => ({ exists: { field } });
const strings = (values: FilterScalar[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))];

/** A range query over one key's terms of one type: the bound given, the other end the type's first or last term. */
function termRange(key: string, tag: 'n' | 'd', op: 'gt' | 'gte' | 'lt' | 'lte', encoded: string): Query {
  const bound = typeStart(key, tag) + encoded;
  const range =
    op === 'gt' || op === 'gte' ? { [op]: bound, lt: typeEnd(key, tag) } : { gte: typeStart(key, tag), [op]: bound };
  return { range: { meta_kv: range } };
}

function metadataCondition(c: Condition): Query {
  const key = c.key!;
  const missing = not(term('meta_keys', key));
  switch (c.op) {
    case 'exists':
      return c.value ? term('meta_keys', key) : missing;
    case 'eq':
      return term('meta_kv', valueTerm(key, c.value));
    case 'in':
      return terms('meta_kv', [...new Set(c.value.map((v) => valueTerm(key, v)))]);
    // Missing, or present with a value of that type and not equal to it.
    case 'ne':
      return anyOf([
        missing,
        allOf([term('meta_types', typeTerm(key, tagOf(c.value))), not(term('meta_kv', valueTerm(key, c.value)))]),
      ]);
    // Missing, or present with a value of the type of one of them and equal to none of them.
    case 'nin': {
      const types = [...new Set(c.value.map((v) => typeTerm(key, tagOf(v))))];
      return anyOf([
        missing,
        allOf([terms('meta_types', types), not(terms('meta_kv', [...new Set(c.value.map((v) => valueTerm(key, v)))]))]),
      ]);
    }
    case 'prefix':
      return { prefix: { meta_kv: typeStart(key, 's') + c.value } };
    default:
      return 'number' in c.value
        ? termRange(key, 'n', c.op, sortableNumber(c.value.number))
        : termRange(key, 'd', c.op, c.value.date);
  }
}

/**
 * A field holding one string or nothing (title, source_ref, content_type, and
 * the content date, which is always there). `dates`: the field holds dates
 * in the canonical form, so a date range is a term range.
 */
function stringFieldCondition(field: string, c: Condition, dates: boolean): Query {
  switch (c.op) {
    case 'exists':
      return c.value ? exists(field) : not(exists(field));
    case 'eq':
      return typeof c.value === 'string' ? term(field, c.value) : MATCH_NONE;
    // A value of another type: only a missing field matches.
    case 'ne':
      return typeof c.value === 'string' ? not(term(field, c.value)) : not(exists(field));
    case 'in': {
      const values = strings(c.value);
      return values.length ? terms(field, values) : MATCH_NONE;
    }
    case 'nin': {
      const values = strings(c.value);
      return values.length ? not(terms(field, values)) : not(exists(field));
    }
    case 'prefix':
      return { prefix: { [field]: c.value } };
    default:
      // A number never compares with a string. The parser allows a range on the date fields only
      // (title, source_ref and content_type keep no canonical date to compare: no range reaches them).
      return dates && 'date' in c.value ? { range: { [field]: { [c.op]: c.value.date } } } : MATCH_NONE;
  }
}

/** `kind`: the item kind (file_excerpt, image, chat, creation) or the document kind (text, file, image); never missing. */
function kindCondition(c: Condition): Query {
  const either = (make: (field: string) => Query) => anyOf([make('kind'), make('doc_kind')]);
  switch (c.op) {
    case 'exists':
      return c.value ? MATCH_ALL : MATCH_NONE;
    case 'eq':
      return typeof c.value === 'string' ? either((f) => term(f, c.value as string)) : MATCH_NONE;
    case 'ne':
      return typeof c.value === 'string' ? not(either((f) => term(f, c.value as string))) : MATCH_NONE;
    case 'in':
    case 'nin': {
      const values = strings(c.value);
      if (!values.length) return MATCH_NONE;
      const found = either((f) => terms(f, values));
      return c.op === 'in' ? found : not(found);
    }
    case 'prefix':
      return either((f) => ({ prefix: { [f]: c.value } }));
    default:
      return MATCH_NONE;
  }
}

export function conditionQuery(c: Condition): Query {
  switch (c.field) {
    case 'metadata':
      return metadataCondition(c);
    case 'kind':
      return kindCondition(c);
    case 'title':
      return stringFieldCondition('title_kw', c, false);
    case 'source_ref':
      return stringFieldCondition('source_ref_kw', c, false);
    case 'content_type':
      return stringFieldCondition('content_type', c, false);
    // Both read the item's content date (a document's is its capture time).
    case 'created_at':
    case 'content_date':
      return stringFieldCondition('content_date', c, true);
  }
}

/** The query (filter context) matching exactly the documents the filter accepts. */
export function filterQuery(filter: Filter): Query {
  switch (filter.type) {
    case 'and':
      return allOf(filter.filters.map(filterQuery));
    case 'or':
      return anyOf(filter.filters.map(filterQuery));
    case 'not':
      return not(filterQuery(filter.filter));
    default:
      return conditionQuery(filter);
  }
}

/** The filter clauses a query adds: none without a filter. */
export const filterClauses = (filter: Filter | undefined): Query[] => (filter ? [filterQuery(filter)] : []);
