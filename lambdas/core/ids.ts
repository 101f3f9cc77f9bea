import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

export type IdPrefix = 'file' | 'msg' | 'crt' | 'run' | 'req' | 'ten' | 'key' | 'cnv';

/** Prefixed ULIDs: sortable by creation time, 26 characters after the prefix. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${nextUlid()}`;

/** A ULID as newId writes it: 26 characters of Crockford's base32 (no I, L, O or U), upper case. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Whether `value` has the shape of an id newId(prefix) makes (not whether such a thing exists). */
export const isIdOf = (prefix: IdPrefix, value: string): boolean =>
  value.startsWith(`${prefix}_`) && ULID.test(value.slice(prefix.length + 1));
