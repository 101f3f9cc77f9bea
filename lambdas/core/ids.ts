import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

export type IdPrefix = 'file' | 'msg' | 'crt' | 'run' | 'req' | 'ten' | 'key' | 'cnv';

/** Prefixed ULIDs: sortable by creation time, 26 characters after the prefix. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${nextUlid()}`;

/** A ULID as newId writes it: 26 characters of Crockford's base32 (no I, L, O or U), upper case. */
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/** The shape of an id newId(prefix) makes, as a pattern (a schema's, which the OpenAPI document then states). */
export const idPatternOf = (prefix: IdPrefix): RegExp => new RegExp(`^${prefix}_${ULID}$`);

const ID_PATTERNS = new Map<IdPrefix, RegExp>();

/** Whether `value` has the shape of an id newId(prefix) makes (not whether such a thing exists). */
export const isIdOf = (prefix: IdPrefix, value: string): boolean => {
  let pattern = ID_PATTERNS.get(prefix);
  if (!pattern) ID_PATTERNS.set(prefix, (pattern = idPatternOf(prefix)));
  return pattern.test(value);
};
