import { invalidRequest } from './errors.js';
import type { Metadata, MetadataValue } from './metadata.js';
import { METADATA_LIMITS } from './metadata.js';

/**
 * The filter grammar of API.md ("Filters"), parsed once into a tree every
 * store reads: SQLite compiles it to SQL over its indexed metadata table,
 * OpenSearch to bool and k-NN filters, and DynamoDB's document list (and the
 * tests) evaluate it with `matchesFilter`. The semantics live here:
 *
 * - an array-valued key matches eq/in when any element does, and prefix when
 *   any element starts with it;
 * - a condition on a value of another type does not match (never an error);
 * - a missing key (or a null source_ref) matches only ne, nin and exists: false;
 * - gt/gte/lt/lte take a number, or an ISO 8601 date: a date compares with
 *   the date fields and with metadata strings that are ISO 8601 dates, all
 *   in the service's UTC form (`2026-11-22T06:41:03.123456`).
 */

export const DOCUMENT_FIELDS = ['source_ref', 'title', 'kind', 'content_type', 'created_at', 'content_date'] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];
export type FilterField = DocumentField | 'metadata';
export const DATE_FIELDS: readonly DocumentField[] = ['created_at', 'content_date'];

export type FilterScalar = string | number | boolean;
/** A range bound: a number, or a date in the service's UTC form. */
export type RangeBound = { number: number } | { date: string };

export type Condition =
  | { type: 'condition'; field: FilterField; key?: string; op: 'eq' | 'ne'; value: FilterScalar }
  | { type: 'condition'; field: FilterField; key?: string; op: 'in' | 'nin'; value: FilterScalar[] }
  | { type: 'condition'; field: FilterField; key?: string; op: 'gt' | 'gte' | 'lt' | 'lte'; value: RangeBound }
  | { type: 'condition'; field: FilterField; key?: string; op: 'exists'; value: boolean }
  | { type: 'condition'; field: FilterField; key?: string; op: 'prefix'; value: string };

export type Filter =
  | { type: 'and'; filters: Filter[] }
  | { type: 'or'; filters: Filter[] }
  | { type: 'not'; filter: Filter }
  | Condition;

export type FilterOp = Condition['op'];
const OPS: readonly FilterOp[] = ['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists', 'prefix'];

export const FILTER_LIMITS = { depth: 4, conditions: 32, inValues: 100, jsonChars: 16_384 } as const;

// ---- dates

// YYYY-MM-DD, optionally THH:MM[:SS[.fraction]] and a zone (Z or ±HH[:]MM). Linear: no ambiguous repetition.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time in the service's UTC form (six fractional digits, no zone); null when it is not one. */
export function canonicalDate(value: string): string | null {
  if (value.length > 40) return null;
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = m;
  if (Number(y) < 1) return null;
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)] as const;
  const millis = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]);
  const check = new Date(millis);
  // Date.UTC rolls 2024-02-30 over into March: such a date is not one.
  if (check.getUTCFullYear() !== fields[0] || check.getUTCMonth() !== fields[1] - 1 || check.getUTCDate() !== fields[2])
    return null;
  if (fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return null;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const utc = new Date(millis - offsetMinutes * 60_000);
  // A zone may carry the instant out of the years the UTC form can write (0001 to 9999).
  if (Number.isNaN(utc.getTime()) || utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) return null;
  const micro = `${fraction}000000`.slice(0, 6);
  return `${utc.toISOString().slice(0, 19)}.${micro}`;
}

// ---- parsing

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is FilterScalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

class FilterParser {
  private conditions = 0;

  parse(value: unknown, path: string, depth: number): Filter {
    if (!isPlainObject(value)) throw invalidRequest(`${path}: expected an object`);
    const keys = Object.keys(value);
    if (!keys.length) throw invalidRequest(`${path}: an empty filter; give at least one condition`);
    const parts: Filter[] = [];
    for (const key of keys) {
      const at = `${path}.${key}`;
      if (key === 'and' || key === 'or') {
        const list = value[key];
        if (!Array.isArray(list) || !list.length) throw invalidRequest(`${at}: expected a non-empty array of filters`);
        this.nest(at, depth);
        parts.push({ type: key, filters: list.map((f, i) => this.parse(f, `${at}[${i}]`, depth + 1)) });
      } else if (key === 'not') {
        this.nest(at, depth);
        parts.push({ type: 'not', filter: this.parse(value[key], at, depth + 1) });
      } else {
        parts.push(...this.field(key, value[key], at));
      }
    }
    return parts.length === 1 ? parts[0]! : { type: 'and', filters: parts };
  }

  private nest(path: string, depth: number) {
    if (depth >= FILTER_LIMITS.depth)
      throw invalidRequest(`${path}: at most ${FILTER_LIMITS.depth} levels of and, or and not`);
  }

  private field(name: string, condition: unknown, path: string): Condition[] {
    let field: FilterField;
    let key: string | undefined;
    if (name.startsWith('metadata.')) {
      field = 'metadata';
      key = name.slice('metadata.'.length);
      if (!METADATA_LIMITS.keyPattern.test(key))
        throw invalidRequest(`${path}: not a metadata key (a letter or _, then at most 63 letters, digits, _ . or -)`);
    } else if ((DOCUMENT_FIELDS as readonly string[]).includes(name)) {
      field = name as DocumentField;
    } else {
      throw invalidRequest(
        `${path}: unknown field; use metadata.<key>, ${DOCUMENT_FIELDS.join(', ')}, or and, or, not`,
      );
    }
    const ops: Array<[string, unknown]> = isPlainObject(condition) ? Object.entries(condition) : [['eq', condition]];
    if (!ops.length) throw invalidRequest(`${path}: expected a value or an object of operators`);
    return ops.map(([op, value]) =>
      this.condition(field, key, op, value, isPlainObject(condition) ? `${path}.${op}` : path),
    );
  }

  private condition(field: FilterField, key: string | undefined, op: string, value: unknown, path: string): Condition {
    if (++this.conditions > FILTER_LIMITS.conditions)
      throw invalidRequest(`${path}: at most ${FILTER_LIMITS.conditions} conditions in a filter`);
    const base = { type: 'condition' as const, field, ...(key === undefined ? {} : { key }) };
    const isDateField = (DATE_FIELDS as readonly string[]).includes(field);
    // On a date field an equality reads a date in its UTC form; any other value is of another type and matches nothing.
    const scalar = (v: unknown, at: string): FilterScalar => {
      if (!isScalar(v)) throw invalidRequest(`${at}: expected a string, a number or a boolean`);
      return isDateField && typeof v === 'string' ? (canonicalDate(v) ?? v) : v;
    };
    switch (op) {
      case 'eq':
      case 'ne':
        return { ...base, op, value: scalar(value, path) };
      case 'in':
      case 'nin': {
        if (!Array.isArray(value) || value.length < 1 || value.length > FILTER_LIMITS.inValues) {
          throw invalidRequest(`${path}: expected an array of 1 to ${FILTER_LIMITS.inValues} values`);
        }
        return { ...base, op, value: value.map((v, i) => scalar(v, `${path}[${i}]`)) };
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const date = typeof value === 'string' ? canonicalDate(value) : null;
        if (isDateField) {
          if (date === null) throw invalidRequest(`${path}: expected an ISO 8601 date`);
          return { ...base, op, value: { date } };
        }
        if (field !== 'metadata')
          throw invalidRequest(`${path}: ${op} applies to metadata, created_at and content_date`);
        if (typeof value === 'number' && Number.isFinite(value)) return { ...base, op, value: { number: value } };
        if (date !== null) return { ...base, op, value: { date } };
        throw invalidRequest(`${path}: expected a number or a date`);
      }
      case 'exists':
        if (typeof value !== 'boolean') throw invalidRequest(`${path}: expected true or false`);
        return { ...base, op, value };
      case 'prefix':
        if (typeof value !== 'string') throw invalidRequest(`${path}: expected a string`);
        return { ...base, op, value };
      default:
        throw invalidRequest(`${path}: unknown operator; use ${OPS.join(', ')}`);
    }
  }
}

/** The filter tree of a parsed JSON value; 422 `invalid_request` naming the path inside it. */
export function parseFilter(value: unknown, path = 'filter'): Filter {
  const filter = new FilterParser().parse(value, path, 0);
  // The same bound in a body (chat, MCP) as in a query parameter. Measured once the parser has accepted the
  // value: it refuses deep nesting first, which JSON.stringify would recurse into until the stack ran out.
  if ((JSON.stringify(value) ?? '').length > FILTER_LIMITS.jsonChars)
    throw invalidRequest(`${path}: at most ${FILTER_LIMITS.jsonChars} characters of JSON`);
  return filter;
}

/** The filter of a query parameter: URL-decoded JSON text. */
export function parseFilterParam(text: string, path = 'filter'): Filter {
  if (text.length > FILTER_LIMITS.jsonChars)
    throw invalidRequest(`${path}: at most ${FILTER_LIMITS.jsonChars} characters`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest(`${path}: not valid JSON (a URL-encoded JSON object)`);
  }
  return parseFilter(value, path);
}

/** A stable text of a filter, for cursors: a page's cursor works only with the same filter. */
export const filterFingerprint = (filter: Filter | undefined): string | null =>
  filter ? JSON.stringify(filter) : null;

// ---- evaluation

/** What a filter reads of a document or an item. */
export interface FilterSubject {
  metadata: Metadata;
  source_ref: string | null;
  title: string | null;
  /** Every kind it answers to: the document's (text, file, image) and its search results' (file_excerpt, image, chat, creation). */
  kinds: readonly string[];
  content_type: string | null;
  created_at: string;
  content_date: string;
}

/** Whether a stored value and a filter value are of one type (an array of strings is a string's type). */
const sameType = (stored: MetadataValue, value: FilterScalar) =>
  Array.isArray(stored) ? typeof value === 'string' : typeof stored === typeof value;

const equals = (stored: MetadataValue, value: FilterScalar) =>
  Array.isArray(stored) ? stored.includes(value as string) : stored === value;

function compare(op: 'gt' | 'gte' | 'lt' | 'lte', a: number | string, b: number | string): boolean {
  switch (op) {
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    default:
      return a <= b;
  }
}

/** The value a condition reads; undefined when missing. `kind` is read as the list of kinds the subject answers to. */
function conditionValue(subject: FilterSubject, condition: Condition): MetadataValue | undefined {
  if (condition.field === 'metadata')
    return Object.hasOwn(subject.metadata, condition.key!) ? subject.metadata[condition.key!] : undefined;
  if (condition.field === 'kind') return [...subject.kinds];
  const value = subject[condition.field];
  return value === null ? undefined : value;
}

export function matchesCondition(subject: FilterSubject, c: Condition): boolean {
  const stored = conditionValue(subject, c);
  if (c.op === 'exists') return (stored !== undefined) === c.value;
  if (stored === undefined) return c.op === 'ne' || c.op === 'nin';
  switch (c.op) {
    case 'eq':
      return sameType(stored, c.value) && equals(stored, c.value);
    case 'ne':
      return sameType(stored, c.value) && !equals(stored, c.value);
    case 'in':
      return c.value.some((v) => sameType(stored, v) && equals(stored, v));
    case 'nin':
      return c.value.some((v) => sameType(stored, v)) && !c.value.some((v) => sameType(stored, v) && equals(stored, v));
    case 'prefix':
      return (Array.isArray(stored) ? stored : [stored]).some((v) => typeof v === 'string' && v.startsWith(c.value));
    default: {
      if (Array.isArray(stored) || typeof stored === 'boolean') return false;
      if ('number' in c.value) return typeof stored === 'number' && compare(c.op, stored, c.value.number);
      const date = typeof stored === 'string' ? canonicalDate(stored) : null;
      return date !== null && compare(c.op, date, c.value.date);
    }
  }
}

export function matchesFilter(subject: FilterSubject, filter: Filter): boolean {
  switch (filter.type) {
    case 'and':
      return filter.filters.every((f) => matchesFilter(subject, f));
    case 'or':
      return filter.filters.some((f) => matchesFilter(subject, f));
    case 'not':
      return !matchesFilter(subject, filter.filter);
    default:
      return matchesCondition(subject, filter);
  }
}
