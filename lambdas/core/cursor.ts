import { createHash } from 'node:crypto';
import { invalidRequest } from './errors.js';
import { LIMITS } from './limits.js';

/**
 * Opaque page cursors. A cursor carries the position after the last item of a
 * page and a fingerprint of the query and library it came from; a cursor used
 * with another query or library is refused (422), as API.md requires.
 */
export function fingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor<P>(scope: string, position: P): string {
  return Buffer.from(JSON.stringify({ s: scope, p: position }), 'utf8').toString('base64url');
}

export function decodeCursor<P>(
  cursor: string | undefined,
  scope: string,
  isPosition: (value: unknown) => value is P,
): P | undefined {
  if (cursor === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidRequest('cursor: not a cursor this API issued');
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalidRequest('cursor: not a cursor this API issued');
  const { s, p } = parsed as { s?: unknown; p?: unknown };
  if (s !== scope) throw invalidRequest('cursor: it belongs to another query or library');
  if (!isPosition(p)) throw invalidRequest('cursor: not a cursor this API issued');
  return p;
}

/**
 * The longest string a cursor's position may hold: the longest key any list
 * pages by (an end user id). Every position is checked before it reaches a
 * store: a forged one (a negative line, an offset of 1e300, a key of
 * kilobytes) is a bad cursor (422), never a query a store may choke on.
 */
export const CURSOR_KEY_CHARS = LIMITS.endUserIdChars;

/** A non-empty string of at most `max` characters: an id, a date or an end user id in a position. */
export const isCursorKey = (v: unknown, max: number = CURSOR_KEY_CHARS): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= max;

/**
 * The longest date or id of a newest-first position: the service's are 26
 * (a date) and 31 (`file_` and a ULID) characters. Both together stay far
 * below DynamoDB's 1,024 bytes for a sort key compared against.
 */
export const NEWEST_FIRST_KEY_CHARS = 64;

export const isNewestFirstKey = (v: unknown): v is { createdAt: string; id: string } =>
  typeof v === 'object' &&
  v !== null &&
  isCursorKey((v as Record<string, unknown>).createdAt, NEWEST_FIRST_KEY_CHARS) &&
  isCursorKey((v as Record<string, unknown>).id, NEWEST_FIRST_KEY_CHARS);

/** A count of items or lines already read: a whole number from 0 to `max` (JSON may hold 1e300, -1 or 0.5). */
export const isCount = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;

export const isOffset = (v: unknown): v is number => isCount(v);

/** An offset into a list that never holds more than `max` items. */
export const offsetUpTo =
  (max: number) =>
  (v: unknown): v is number =>
    isCount(v, max);

/** One page of a list, in the contract's shape. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * A page from rows fetched with one more than the limit (keyset paging):
 * the extra row only says there is more; the cursor is the last shown row's position.
 */
export function keysetPage<R, T, P>(
  rows: readonly R[],
  limit: number,
  scope: string,
  view: (row: R) => T,
  positionOf: (row: R) => P,
): Page<T> {
  const hasMore = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(view),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(scope, positionOf(last)) : null,
  };
}
