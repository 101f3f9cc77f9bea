import { CaptureRejected } from '../../core/errors.js';

/**
 * Decodes a text file: a byte order mark decides (UTF-8, UTF-16 LE/BE);
 * without one, valid UTF-8 is UTF-8 and anything else is read as Latin-1
 * (windows-1252, the WHATWG reading of "latin1"). The BOM is dropped.
 */
export function decodeText(bytes: Uint8Array): string {
  const text = decode(bytes);
  if (looksBinary(text))
    throw new CaptureRejected('unsupported_type', 'the file is binary data of an unknown type, not text');
  return text;
}

/** One pass over valid UTF-8: the strict decoder's result is the text, and only its failure falls back to windows-1252. */
function decode(bytes: Uint8Array): string {
  const bom = bomEncoding(bytes);
  if (bom) return new TextDecoder(bom).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The encoding a byte order mark announces, or null without one. */
export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** NUL characters, or many other control characters, mean the bytes are not text in this encoding. */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 64 * 1024);
  if (sample.includes('\u0000')) return true;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: counting control characters is the point
  const controls = sample.match(/[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/g)?.length ?? 0;
  return controls > sample.length * 0.05;
}
