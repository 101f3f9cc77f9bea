import {
  type Condition,
  canonicalDate,
  type DocumentField,
  type Filter,
  type FilterScalar,
} from '../../core/filter.js';
import type { Metadata } from '../../core/metadata.js';
import type { SqliteDatabase } from './database.js';

/**
 * Filters (core/filter.ts) compiled to SQL over an indexed metadata table:
 * one row per scalar of each key (an array's elements one row each), typed,
 * so an equality, a range or a prefix is an index range scan, never a JSON
 * scan of every row. The documents table and the search index's items each
 * keep one (their `owner` is the row's rowid; `scope` its library), and this
 * module alone writes and reads them.
 *
 * Types: `s` a string value, `e` an element of an array of strings, `a` an
 * empty array, `n` a number, `b` a boolean (1 or 0). A string that is an ISO
 * 8601 date also has its UTC form in `date`, which ranges with a date read.
 * Every condition compiles to an expression that is 0 or 1, never NULL, so
 * `not` inverts it exactly as matchesFilter does.
 */
export const metadataTableSchema = (table: string) => `
CREATE TABLE IF NOT EXISTS ${table} (
  owner INTEGER NOT NULL,
  scope NOT NULL,
  key TEXT NOT NULL,
  type TEXT NOT NULL,
  value,
  date TEXT
);
CREATE INDEX IF NOT EXISTS ${table}_value ON ${table}(scope, key, type, value);
CREATE INDEX IF NOT EXISTS ${table}_date ON ${table}(scope, key, date) WHERE date IS NOT NULL;
CREATE INDEX IF NOT EXISTS ${table}_owner ON ${table}(owner);
`;

/** Replaces the metadata rows of one owner. Call inside the transaction that writes the owner's row. */
export function writeMetadataRows(
  db: SqliteDatabase,
  table: string,
  owner: number,
  scope: number | string,
  metadata: Metadata,
) {
  db.prepare(`DELETE FROM ${table} WHERE owner = ?`).run(owner);
  const insert = db.prepare(`INSERT INTO ${table} (owner, scope, key, type, value, date) VALUES (?, ?, ?, ?, ?, ?)`);
  for (const [key, value] of Object.entries(metadata)) {
    if (Array.isArray(value)) {
      if (!value.length) insert.run(owner, scope, key, 'a', null, null);
      for (const element of new Set(value)) insert.run(owner, scope, key, 'e', element, null);
    } else if (typeof value === 'string') {
      insert.run(owner, scope, key, 's', value, canonicalDate(value));
    } else if (typeof value === 'number') {
      insert.run(owner, scope, key, 'n', value, null);
    } else {
      insert.run(owner, scope, key, 'b', value ? 1 : 0, null);
    }
  }
}

export function deleteMetadataRows(db: SqliteDatabase, table: string, owner: number) {
  db.prepare(`DELETE FROM ${table} WHERE owner = ?`).run(owner);
}

/** Where a filter reads the fields of the rows it filters. */
export interface FilterColumns {
  /** The metadata table, the expression of the filtered row's owner id, and the scope (library) every filtered row is of. */
  metadataTable: string;
  owner: string;
  scope: number | string;
  /** SQL expressions of the document fields (NULL when the row has none). */
  fields: Record<Exclude<DocumentField, 'kind'>, string>;
  /** SQL expressions of every kind the row answers to (core/filter-subject.ts); a NULL one answers to none. */
  kinds: readonly string[];
  /**
   * How a metadata condition reads its rows. `set` (the default): one
   * uncorrelated subquery, evaluated once, for a filter over many rows.
   * `row`: a lookup by the row's owner id, for a filter over a few rows
   * (a leg's candidates), where building the set of every match would cost
   * more than the candidates themselves.
   */
  lookup?: 'set' | 'row';
}

export interface CompiledFilter {
  sql: string;
  params: unknown[];
}

const TYPES_OF: Record<'string' | 'number' | 'boolean', readonly string[]> = {
  string: ['s', 'e', 'a'],
  number: ['n'],
  boolean: ['b'],
};
const typeOf = (v: FilterScalar) => typeof v as 'string' | 'number' | 'boolean';
/** The values an eq/ne/in/nin condition names, as a list. */
const valuesOf = (c: Condition): FilterScalar[] => (Array.isArray(c.value) ? c.value : [c.value as FilterScalar]);
const placeholders = (n: number) => new Array(n).fill('?').join(', ');
const RANGE_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
/**
 * The least string after every string that starts with `p` (in code point
 * order, which is SQLite's byte order of UTF-8): `p` with its last code point
 * raised by one (past the surrogates; a last U+10FFFF is dropped and the one
 * before raised). Null when there is none (p empty, or all U+10FFFF).
 */
export function prefixEnd(p: string): string | null {
  const points = [...p].map((c) => c.codePointAt(0)!);
  while (points.length) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}

/** SQL that `expr` starts with `p`: an index range when it has an end, and the exact check. */
function startsWith(expr: string, p: string, bind: (...values: unknown[]) => void): string {
  const end = prefixEnd(p);
  bind(p);
  const range = end === null ? `${expr} >= ?` : `${expr} >= ? AND ${expr} < ?`;
  if (end !== null) bind(end);
  bind([...p].length, p);
  return `${range} AND substr(${expr}, 1, ?) = ?`;
}

class Compiler {
  readonly params: unknown[] = [];
  constructor(private readonly columns: FilterColumns) {}

  compile(filter: Filter): string {
    switch (filter.type) {
      case 'and':
        return `(${filter.filters.map((f) => this.compile(f)).join(' AND ')})`;
      case 'or':
        return `(${filter.filters.map((f) => this.compile(f)).join(' OR ')})`;
      case 'not':
        return `(NOT ${this.compile(filter.filter)})`;
      default:
        return filter.field === 'metadata'
          ? this.metadata(filter)
          : filter.field === 'kind'
            ? this.kind(filter)
            : this.column(filter);
    }
  }

  private bind(...values: unknown[]) {
    this.params.push(...values);
  }

  /** The owner holds a row of key `key` matching `where` (its params bound after scope and key). */
  private holds(key: string, where: string, ...values: unknown[]): string {
    const { metadataTable, owner, scope } = this.columns;
    if (this.columns.lookup === 'row') {
      this.bind(key, ...values);
      return `(EXISTS (SELECT 1 FROM ${metadataTable} m WHERE m.owner = ${owner} AND m.key = ?${where ? ` AND ${where}` : ''}))`;
    }
    // Bound, not correlated: SQLite evaluates the subquery once per statement, not once per row.
    this.bind(scope, key, ...values);
    return `(${owner} IN (SELECT m.owner FROM ${metadataTable} m WHERE m.scope = ? AND m.key = ?${where ? ` AND ${where}` : ''}))`;
  }

  private equalsValue(key: string, v: FilterScalar): string {
    if (typeof v === 'string') return this.holds(key, `m.type IN ('s', 'e') AND m.value = ?`, v);
    if (typeof v === 'number') return this.holds(key, `m.type = 'n' AND m.value = ?`, v);
    return this.holds(key, `m.type = 'b' AND m.value = ?`, v ? 1 : 0);
  }

  private holdsTypes(key: string, values: readonly FilterScalar[]): string {
    const types = [...new Set(values.flatMap((v) => TYPES_OF[typeOf(v)]))];
    return this.holds(key, `m.type IN (${placeholders(types.length)})`, ...types);
  }

  private metadata(c: Condition): string {
    const key = c.key!;
    switch (c.op) {
      case 'exists':
        return c.value ? this.holds(key, '') : `(NOT ${this.holds(key, '')})`;
      case 'eq':
        return this.equalsValue(key, c.value);
      case 'in':
        return `(${c.value.map((v) => this.equalsValue(key, v)).join(' OR ')})`;
      case 'ne':
      case 'nin': {
        const values = valuesOf(c);
        const missing = `(NOT ${this.holds(key, '')})`;
        const typed = this.holdsTypes(key, values);
        const equal = values.map((v) => this.equalsValue(key, v)).join(' OR ');
        return `(${missing} OR (${typed} AND NOT (${equal})))`;
      }
      case 'prefix': {
        const values: unknown[] = [];
        const where = `m.type IN ('s', 'e') AND ${startsWith('m.value', c.value, (...v) => values.push(...v))}`;
        return this.holds(key, where, ...values);
      }
      default: {
        const op = RANGE_SQL[c.op];
        if ('number' in c.value) return this.holds(key, `m.type = 'n' AND m.value ${op} ?`, c.value.number);
        return this.holds(key, `m.type = 's' AND m.date IS NOT NULL AND m.date ${op} ?`, c.value.date);
      }
    }
  }

  /** A document field: a string column (NULL: missing). */
  private column(c: Condition): string {
    const column = this.columns.fields[c.field as Exclude<DocumentField, 'kind'>];
    const present = `(${column} IS NOT NULL)`;
    const eq = (v: FilterScalar) => {
      if (typeof v !== 'string') return '0';
      this.bind(v);
      return `(${column} IS ?)`;
    };
    switch (c.op) {
      case 'exists':
        return c.value ? present : `(NOT ${present})`;
      case 'eq':
        return eq(c.value);
      case 'in':
        return `(${c.value.map(eq).join(' OR ')})`;
      case 'ne':
      case 'nin': {
        const values = valuesOf(c);
        const strings = values.filter((v): v is string => typeof v === 'string');
        if (!strings.length) return `(NOT ${present})`;
        return `(NOT ${present} OR NOT (${strings.map(eq).join(' OR ')}))`;
      }
      case 'prefix':
        return `(${present} AND ${startsWith(column, c.value, (...v) => this.bind(...v))})`;
      default: {
        // Only the date fields take a range (the parser refuses it elsewhere); their values are in the UTC form.
        const bound = 'date' in c.value ? c.value.date : null;
        if (bound === null) return '0';
        this.bind(bound);
        return `coalesce(${column} ${RANGE_SQL[c.op]} ?, 0)`;
      }
    }
  }

  /** `kind`: a list of the kinds the row answers to (its document kind and its result kind). */
  private kind(c: Condition): string {
    const { kinds } = this.columns;
    const any = (v: FilterScalar) => {
      if (typeof v !== 'string') return '0';
      return `(${kinds
        .map((k) => {
          this.bind(v);
          return `${k} IS ?`;
        })
        .join(' OR ')})`;
    };
    switch (c.op) {
      case 'exists':
        return c.value ? '1' : '0';
      case 'eq':
        return any(c.value);
      case 'in':
        return `(${c.value.map(any).join(' OR ')})`;
      case 'ne':
      case 'nin': {
        const values = valuesOf(c);
        if (!values.some((v) => typeof v === 'string')) return '0';
        return `(NOT (${values.map(any).join(' OR ')}))`;
      }
      case 'prefix':
        return `(${kinds
          .map((k) => {
            this.bind([...c.value].length, c.value);
            return `coalesce(substr(${k}, 1, ?) = ?, 0)`;
          })
          .join(' OR ')})`;
      default:
        return '0';
    }
  }
}

/** The filter as an SQL condition on the filtered row, with its parameters in order. */
export function compileFilter(filter: Filter, columns: FilterColumns): CompiledFilter {
  const compiler = new Compiler(columns);
  const sql = compiler.compile(filter);
  return { sql, params: compiler.params };
}

/** Parses a stored metadata column (JSON, NULL for none). */
export const metadataOf = (json: string | null | undefined): Metadata => (json ? (JSON.parse(json) as Metadata) : {});
