import { invalidRequest } from './errors.js';

/**
 * A document's metadata (API.md, "Metadata"): at most 32 keys, each a string,
 * a finite number, a boolean or an array of strings, serializing to at most
 * 8 KB. Validated here once for captures, batch items and PATCH.
 */
export type MetadataValue = string | number | boolean | string[];
export type Metadata = Record<string, MetadataValue>;

export const METADATA_LIMITS = {
  keys: 32,
  keyPattern: /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/,
  stringChars: 1024,
  arrayItems: 64,
  arrayItemChars: 256,
  serializedBytes: 8 * 1024,
} as const;

/** Over `max` characters (code points, as every other limit of the API counts them: an emoji is one). */
const longerThan = (text: string, max: number) => text.length > max && [...text].length > max;

/** Why `value` is not a metadata value; null when it is. */
function valueProblem(value: unknown): string | null {
  if (typeof value === 'string')
    return longerThan(value, METADATA_LIMITS.stringChars)
      ? `a string is at most ${METADATA_LIMITS.stringChars} characters`
      : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'a number must be finite';
  if (typeof value === 'boolean') return null;
  if (Array.isArray(value)) {
    if (value.length > METADATA_LIMITS.arrayItems)
      return `an array holds at most ${METADATA_LIMITS.arrayItems} strings`;
    for (const [i, item] of value.entries()) {
      if (typeof item !== 'string') return `[${i}]: an array holds strings only`;
      if (longerThan(item, METADATA_LIMITS.arrayItemChars))
        return `[${i}]: an array's string is at most ${METADATA_LIMITS.arrayItemChars} characters`;
    }
    return null;
  }
  return 'expected a string, a number, a boolean or an array of strings';
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a key's name; throws 422 naming it. */
function checkKey(key: string, path: string) {
  if (!METADATA_LIMITS.keyPattern.test(key)) {
    throw invalidRequest(
      `${path}.${key}: a key starts with a letter or _ and holds at most 64 letters, digits, _ . or -`,
    );
  }
}

/** Throws 422 `invalid_request` naming the key when the object breaks the metadata rules. */
export function checkMetadata(value: unknown, path = 'metadata'): Metadata {
  if (!isPlainObject(value)) throw invalidRequest(`${path}: expected an object`);
  const keys = Object.keys(value);
  if (keys.length > METADATA_LIMITS.keys)
    throw invalidRequest(`${path}: at most ${METADATA_LIMITS.keys} keys (got ${keys.length})`);
  for (const key of keys) {
    checkKey(key, path);
    const problem = valueProblem(value[key]);
    if (problem) throw invalidRequest(`${path}.${key}${problem.startsWith('[') ? problem : `: ${problem}`}`);
  }
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > METADATA_LIMITS.serializedBytes)
    throw invalidRequest(`${path}: serializes to ${bytes} bytes, over ${METADATA_LIMITS.serializedBytes}`);
  // A copy: the caller's object (and its arrays) never alias the stored one.
  return Object.fromEntries(
    keys.map((k) => [k, Array.isArray(value[k]) ? [...(value[k] as string[])] : value[k]]),
  ) as Metadata;
}

/**
 * A merge patch (RFC 7396) on metadata: a key with a value sets it, a key with
 * null removes it. A patch that is null removes every key (RFC 7396: a patch
 * that is not an object replaces the whole, and no metadata is `{}`). The
 * result is checked against the metadata rules.
 */
export function mergeMetadata(current: Metadata, patch: unknown, path = 'metadata'): Metadata {
  if (patch === null) return {};
  if (!isPlainObject(patch))
    throw invalidRequest(`${path}: expected an object (a merge patch: a key with null removes it)`);
  // A Map, not an object: a key named __proto__ is a key like any other.
  const merged = new Map<string, unknown>(Object.entries(current));
  for (const [key, value] of Object.entries(patch)) {
    checkKey(key, path);
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return checkMetadata(Object.fromEntries(merged), path);
}

/** The scalars a value holds: itself, or an array's elements. */
export const scalarsOf = (value: MetadataValue): Array<string | number | boolean> =>
  Array.isArray(value) ? value : [value];
