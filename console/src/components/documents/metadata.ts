import type { Metadata, MetadataPatch } from '../../../../client/src/index.js';

/** The contract's metadata rules (API.md, "Metadata"), checked before sending so a mistake is named at once; the service checks again. */
const KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const MAX_KEYS = 32;
const MAX_STRING = 1024;
const MAX_ARRAY = 64;
const MAX_ITEM = 256;
const MAX_BYTES = 8 * 1024;

/** Reads the JSON a person typed as metadata: the object, or what is wrong with it (naming the key). */
export function parseMetadata(text: string): { metadata: Metadata } | { error: string } {
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'Metadata is a JSON object: {"key": "value", ...}' };
  const entries = Object.entries(value);
  if (entries.length > MAX_KEYS) return { error: `At most ${MAX_KEYS} keys (there are ${entries.length})` };
  for (const [key, item] of entries) {
    if (!KEY.test(key))
      return { error: `${key}: a key starts with a letter or _, then letters, digits, _ . or - (at most 64)` };
    const problem = valueProblem(item);
    if (problem) return { error: `${key}: ${problem}` };
  }
  if (new TextEncoder().encode(JSON.stringify(value)).length > MAX_BYTES)
    return { error: 'Metadata is at most 8 KB as JSON' };
  return { metadata: value as Metadata };
}

/** Over `max` characters: code points, as the API counts them (an emoji is one). */
const longerThan = (text: string, max: number) => text.length > max && [...text].length > max;

function valueProblem(value: unknown): string | null {
  if (typeof value === 'string') return longerThan(value, MAX_STRING) ? `at most ${MAX_STRING} characters` : null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'a finite number';
  if (typeof value === 'boolean') return null;
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY) return `at most ${MAX_ARRAY} items`;
    if (!value.every((item) => typeof item === 'string')) return 'an array holds only strings';
    if (value.some((item: string) => longerThan(item, MAX_ITEM))) return `each item at most ${MAX_ITEM} characters`;
    return null;
  }
  return 'a string, a number, a boolean or an array of strings';
}

/** The merge patch (RFC 7396) from `before` to `after`: changed keys with their value, removed keys with null. */
export function metadataPatch(before: Metadata, after: Metadata): MetadataPatch {
  const patch: MetadataPatch = {};
  for (const key of Object.keys(before)) if (!(key in after)) patch[key] = null;
  for (const [key, value] of Object.entries(after))
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) patch[key] = value;
  return patch;
}
