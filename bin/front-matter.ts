import { parse as parseYaml } from 'yaml';
import type { Metadata, MetadataValue } from '../client/src/index.js';
import { METADATA_LIMITS } from '../lambdas/core/metadata.js';

/**
 * Metadata for `library push`: `--metadata key=value` pairs, and the YAML
 * front matter of Markdown files (a first line `---`, YAML, a line `---`).
 *
 * A file with front matter is captured without it: the captured bytes are
 * the body after the closing `---` line, byte for byte, and the front matter
 * becomes the document's metadata. So a document's text never holds a stale
 * copy of its metadata, and push can tell an edit of the front matter alone
 * (same body, so same sha256 as the stored document) from an edit of the
 * text, and PATCH the metadata instead of capturing (and embedding) again.
 */

export const MARKDOWN_EXTENSIONS = ['.md', '.markdown'] as const;

export const isMarkdown = (path: string): boolean =>
  MARKDOWN_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext));

/** A value written as a JSON number (`42`, `-1.5`, `2e3`; not `007`, `+1`, `0x10`). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?$/i;

/**
 * The value of a `--metadata key=value` pair: `true` and `false` are
 * booleans, a JSON number that is finite is a number, anything else (the
 * empty string included) is a string.
 */
export function parseMetadataValue(text: string): MetadataValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.length <= 64 && NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n)) return n;
  }
  return text;
}

/** One `--metadata key=value` pair; throws (naming the problem) when the key or value breaks the metadata rules. */
export function parseMetadataPair(pair: string): [string, MetadataValue] {
  const at = pair.indexOf('=');
  if (at < 0) throw new Error(`expected key=value, got ${JSON.stringify(pair)}`);
  const key = pair.slice(0, at);
  if (!METADATA_LIMITS.keyPattern.test(key))
    throw new Error(
      `${JSON.stringify(key)}: a key starts with a letter or _ and holds at most 64 letters, digits, _ . or -`,
    );
  const value = parseMetadataValue(pair.slice(at + 1));
  if (typeof value === 'string' && value.length > METADATA_LIMITS.stringChars)
    throw new Error(`${key}: a value is at most ${METADATA_LIMITS.stringChars} characters`);
  return [key, value];
}

export interface SplitFile {
  /** What push captures: the whole file, or the body after its front matter. */
  bytes: Buffer;
  /** The file's metadata from its front matter ({} when it has none). */
  metadata: Metadata;
  /** Whether the front matter was cut off the captured bytes. */
  frontMatter: boolean;
  /** Keys left out (and why), or why the front matter was not read; for the report. */
  warnings: string[];
}

const LF = 0x0a;
const CR = 0x0d;

/** The end of the line starting at `start` (the index of its LF, or the length) and whether it holds `---` alone (trailing blanks allowed). */
function fenceLine(bytes: Buffer, start: number): { end: number; fence: boolean } {
  let end = bytes.indexOf(LF, start);
  if (end < 0) end = bytes.length;
  let last = end;
  while (last > start && (bytes[last - 1] === CR || bytes[last - 1] === 0x20 || bytes[last - 1] === 0x09)) last -= 1;
  return {
    end,
    fence: last - start === 3 && bytes[start] === 0x2d && bytes[start + 1] === 0x2d && bytes[start + 2] === 0x2d,
  };
}

/** The front matter's YAML and where the body starts, or null when the file does not open with a `---` ... `---` block. */
export function findFrontMatter(bytes: Buffer): { yaml: string; bodyStart: number } | null {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0; // a UTF-8 byte order mark
  const open = fenceLine(bytes, start);
  if (!open.fence || open.end >= bytes.length) return null;
  for (let line = open.end + 1; line < bytes.length; ) {
    const { end, fence } = fenceLine(bytes, line);
    if (fence)
      return { yaml: bytes.subarray(open.end + 1, line).toString('utf8'), bodyStart: Math.min(end + 1, bytes.length) };
    line = end + 1;
  }
  return null;
}

/** A front matter value as a metadata value, or why it is left out. */
export function metadataValue(value: unknown): { value: MetadataValue } | { problem: string } {
  const scalar = (v: unknown): string | number | boolean | null => {
    if (typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    return null;
  };
  if (Array.isArray(value)) {
    if (value.length > METADATA_LIMITS.arrayItems)
      return { problem: `a list of more than ${METADATA_LIMITS.arrayItems} items` };
    const items: string[] = [];
    for (const item of value) {
      const s = scalar(item);
      if (s === null) return { problem: 'a list holding something other than strings, numbers, booleans or dates' };
      const text = String(s);
      if (text.length > METADATA_LIMITS.arrayItemChars)
        return { problem: `a list item over ${METADATA_LIMITS.arrayItemChars} characters` };
      items.push(text);
    }
    return { value: items };
  }
  const s = scalar(value);
  if (s === null) {
    if (value === null || value === undefined) return { problem: 'no value' };
    if (typeof value === 'number') return { problem: 'not a finite number' };
    return { problem: 'a nested mapping' };
  }
  if (typeof s === 'string' && s.length > METADATA_LIMITS.stringChars)
    return { problem: `a string over ${METADATA_LIMITS.stringChars} characters` };
  return { value: s };
}

/**
 * The metadata of a YAML front matter: its top-level keys whose values the
 * metadata rules allow. Strings, finite numbers and booleans stay; a date
 * YAML reads as one becomes its ISO 8601 text; a list becomes a list of
 * strings (numbers, booleans and dates in it written as text). Left out,
 * with a warning: keys the rules refuse, empty values, nested mappings,
 * lists holding mappings or lists, and values over the size limits.
 */
export function frontMatterMetadata(yaml: string): { metadata: Metadata; warnings: string[] } | { error: string } {
  let parsed: unknown;
  try {
    parsed = parseYaml(yaml);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { error: `its front matter is not valid YAML (${message})` };
  }
  if (parsed === null || parsed === undefined) return { metadata: {}, warnings: [] };
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: 'its front matter is not a mapping of keys to values' };
  // Built with fromEntries: a key `__proto__` is a key like any other, not the object's prototype.
  const entries: Array<[string, MetadataValue]> = [];
  const warnings: string[] = [];
  for (const [key, raw] of Object.entries(parsed as Record<string, unknown>)) {
    if (!METADATA_LIMITS.keyPattern.test(key)) {
      warnings.push(
        `front matter key ${JSON.stringify(key)} left out: a key starts with a letter or _ and holds at most 64 letters, digits, _ . or -`,
      );
      continue;
    }
    const read = metadataValue(raw);
    if ('problem' in read) warnings.push(`front matter key ${key} left out: ${read.problem}`);
    else entries.push([key, read.value]);
  }
  return { metadata: Object.fromEntries(entries), warnings };
}

/**
 * What push captures of a file and the metadata its front matter gives. A
 * Markdown file opening with valid front matter is captured without it (and
 * whole when nothing but blank lines follows it, so it is not refused as
 * empty); front matter that is not valid YAML, or not a mapping, is left in
 * place: the file is captured whole, with a warning.
 */
export function splitFile(path: string, bytes: Buffer): SplitFile {
  const none: SplitFile = { bytes, metadata: {}, frontMatter: false, warnings: [] };
  if (!isMarkdown(path)) return none;
  const found = findFrontMatter(bytes);
  if (!found) return none;
  const read = frontMatterMetadata(found.yaml);
  if ('error' in read) return { ...none, warnings: [`${read.error}: captured whole, without metadata from it`] };
  const body = bytes.subarray(found.bodyStart);
  if (!body.toString('utf8').trim())
    return { bytes, metadata: read.metadata, frontMatter: false, warnings: read.warnings };
  return { bytes: body, metadata: read.metadata, frontMatter: true, warnings: read.warnings };
}

/** Whether two metadata objects hold the same keys and values (key order aside; list order counts). */
export function sameMetadata(a: Metadata, b: Metadata): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** The merge patch from `current` to `wanted`: the keys whose value differs, and null for the keys `wanted` no longer has. */
export function metadataPatch(current: Metadata, wanted: Metadata): Record<string, MetadataValue | null> {
  const patch: Array<[string, MetadataValue | null]> = [];
  for (const [key, value] of Object.entries(wanted)) {
    if (!Object.hasOwn(current, key) || JSON.stringify(current[key]) !== JSON.stringify(value))
      patch.push([key, value]);
  }
  for (const key of Object.keys(current)) if (!Object.hasOwn(wanted, key)) patch.push([key, null]);
  return Object.fromEntries(patch);
}
