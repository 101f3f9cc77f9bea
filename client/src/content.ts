/** Media types from a file's name, then from its first bytes (the service checks the bytes again). */
const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  ts: 'text/plain',
  js: 'text/javascript',
  yaml: 'text/yaml',
  yml: 'text/yaml',
};

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((b, i) => bytes[offset + i] === b);
}

export function sniffContentType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'application/pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  return null;
}

/** The type a file is sent with: its extension's, else its bytes', else `application/octet-stream`. */
export function contentTypeFor(filename: string, bytes: Uint8Array): string {
  const extension = /\.([^./\\]+)$/.exec(filename)?.[1]?.toLowerCase();
  const byName = extension ? BY_EXTENSION[extension] : undefined;
  return byName ?? sniffContentType(bytes) ?? 'application/octet-stream';
}

export function toBase64(bytes: Uint8Array): string {
  const buffer = (globalThis as { Buffer?: { from(b: Uint8Array): { toString(encoding: string): string } } }).Buffer;
  if (buffer) return buffer.from(bytes).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function toBytes(data: Uint8Array | ArrayBuffer | Blob): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(await data.arrayBuffer());
}

/**
 * The file name a `Content-Disposition` names: `filename*` (RFC 8187,
 * `UTF-8''` then percent-encoded UTF-8) when present and readable, else
 * `filename` (quoted or a token); null when it names none.
 */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let plain: string | null = null;
  let extended: string | null = null;
  for (const part of splitParameters(header).slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (name === 'filename*') {
      const quote = value.indexOf("'");
      const second = quote < 0 ? -1 : value.indexOf("'", quote + 1);
      if (second > 0 && value.slice(0, quote).toLowerCase() === 'utf-8') {
        try {
          extended = decodeURIComponent(value.slice(second + 1));
        } catch {
          // malformed: the plain filename is used
        }
      }
    } else if (name === 'filename') {
      plain =
        value.startsWith('"') && value.endsWith('"') && value.length >= 2
          ? value.slice(1, -1).replace(/\\(.)/g, '$1')
          : value;
    }
  }
  return extended ?? plain;
}

/** A header value's `;`-separated parts, a quoted string kept whole (a `;` inside quotes splits nothing). */
function splitParameters(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (quoted && c === '\\' && i + 1 < header.length) {
      current += c + header[i + 1];
      i += 1;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}
