/**
 * The one reader of JSON request bodies (endpoint.ts calls it for every
 * route with a body). Its rules are written in docs/api-notes.md, "Requests":
 *
 * - the body's bytes must be UTF-8: bytes that are not are refused, never
 *   replaced with U+FFFD (decoded with a fatal decoder, byte order mark kept,
 *   so a body starting with one is not JSON, as before);
 * - it must be JSON (RFC 8259) whose top level is an object;
 * - a key may appear only once per object (JSON.parse would keep the last
 *   silently: a client sending `text` twice would not know which was stored);
 * - a string may not hold a lone surrogate (`"\ud800"`): it is no Unicode
 *   text and would be stored as U+FFFD.
 *
 * Every refusal is a BodyRefused whose message names where the problem is.
 */
export class BodyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyRefused';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes the body's bytes as UTF-8, refusing any byte sequence that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BodyRefused(`body: not valid UTF-8 (at byte ${firstInvalidUtf8(bytes)})`);
  }
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence (for the message only). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return i;
}

/** A lone surrogate: in a `u` regular expression a surrogate pair is one code point, so only unpaired halves match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** A `\u` escape of a surrogate half (possibly of a pair): only strings with one need decoding to check. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

const MAX_SHOWN_KEY = 64;
const shownKey = (key: string) => (key.length > MAX_SHOWN_KEY ? `${key.slice(0, MAX_SHOWN_KEY)}...` : key);

interface ObjectFrame {
  keys: Set<string>;
  path: string;
  lastKey: string;
}
interface ArrayFrame {
  keys: null;
  path: string;
  index: number;
}
type Frame = ObjectFrame | ArrayFrame;

const childPath = (parent: Frame | undefined): string => {
  if (!parent) return '';
  const segment = parent.keys ? shownKey(parent.lastKey) : String(parent.index);
  return parent.path ? `${parent.path}.${segment}` : segment;
};

/**
 * Walks JSON text that JSON.parse has already accepted (a body, or a query
 * parameter's filter: `root` names it in messages), looking only at its
 * structure: duplicate keys and lone surrogate escapes. Linear in the text:
 * strings are skipped with indexOf, and only keys (and strings that contain
 * a surrogate escape) are decoded.
 */
export function checkJsonStructure(source: string, root = ''): void {
  const stack: Frame[] = [];
  let expectKey = false;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Find the closing quote: the first one preceded by an even number of backslashes.
      let end = source.indexOf('"', i + 1);
      for (;;) {
        let backslashes = 0;
        for (let k = end - 1; source.charCodeAt(k) === 0x5c; k -= 1) backslashes += 1;
        if (backslashes % 2 === 0) break;
        end = source.indexOf('"', end + 1);
      }
      const literal = source.slice(i, end + 1);
      const top = stack[stack.length - 1];
      const keys = expectKey && top?.keys ? top.keys : null;
      const isKey = keys !== null;
      let decoded: string | null = null;
      if (SURROGATE_ESCAPE.test(literal)) {
        decoded = JSON.parse(literal) as string;
        if (LONE_SURROGATE.test(decoded)) {
          const where = (isKey ? top!.path : top ? childPath(top) : root) || 'body';
          throw new BodyRefused(
            `${where}: ${isKey ? 'a key holds' : 'holds'} a \\u escape of a lone surrogate, which is not Unicode text`,
          );
        }
      }
      if (keys) {
        const object = top as ObjectFrame;
        const key = decoded ?? (literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1));
        if (keys.has(key)) {
          const field = object.path ? `${object.path}.${shownKey(key)}` : shownKey(key);
          throw new BodyRefused(`${field}: duplicate key (each key may appear once per object)`);
        }
        keys.add(key);
        object.lastKey = key;
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    switch (c) {
      case 0x7b /* { */:
        stack.push({ keys: new Set(), path: stack.length ? childPath(stack[stack.length - 1]) : root, lastKey: '' });
        expectKey = true;
        break;
      case 0x5b /* [ */:
        stack.push({ keys: null, path: stack.length ? childPath(stack[stack.length - 1]) : root, index: 0 });
        expectKey = false;
        break;
      case 0x7d /* } */:
      case 0x5d /* ] */:
        stack.pop();
        expectKey = false;
        break;
      case 0x2c /* , */:
        {
          const top = stack[stack.length - 1];
          if (top && !top.keys) top.index += 1;
          expectKey = !!top?.keys;
          break;
        }
      default:
        break; // ':' (a value follows), whitespace, numbers, true, false, null
    }
    i += 1;
  }
}

/** Parses a request body's text: JSON, an object at the top, no duplicate key, no lone surrogate. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BodyRefused('body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BodyRefused('body must be a JSON object');
  }
  checkJsonStructure(text);
  return parsed as Record<string, unknown>;
}
