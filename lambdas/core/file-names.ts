import type { DocumentRecord } from './model.js';

/**
 * The name a document's file is downloaded under (GET
 * /v1/documents/{id}/file), and the Content-Disposition that carries it
 * (RFC 6266, with RFC 8187's (formerly 5987's) `filename*` for names that
 * are not plain ASCII). Pure: the HTTP layer sends it; a store that makes
 * download links (S3's presigned URLs) asks the store to answer with it.
 */

/** A title is cut to this many characters before `.txt` is added. */
export const TEXT_NAME_MAX_CHARS = 100;

const CONTROL = /\p{Cc}/gu;
/** Characters no common file system takes in a name (Windows' list, which includes the path separators). */
const RESERVED = /[\\/:*?"<>|]/g;

/**
 * The file name of a document. A file: the filename it was captured with, as
 * sent, but for any path before the last `/` or `\` and control characters
 * (each `_`). A text push (no filename): its title made a file name (path
 * separators and characters file systems refuse each `_`, white space runs
 * one space, at most 100 characters, no leading or trailing dots or spaces)
 * with `.txt` added unless it ends so; a title with nothing left names it by
 * the document id (`file_....txt`).
 */
export function downloadName(doc: Pick<DocumentRecord, 'id' | 'filename' | 'title'>): string {
  if (doc.filename !== null) {
    const base = doc.filename
      .slice(Math.max(doc.filename.lastIndexOf('/'), doc.filename.lastIndexOf('\\')) + 1)
      .replace(CONTROL, '_');
    return base || doc.id;
  }
  const cleaned = doc.title.replace(CONTROL, ' ').replace(RESERVED, '_').replace(/\s+/gu, ' ');
  const cut = [...cleaned].slice(0, TEXT_NAME_MAX_CHARS).join('');
  const name = trimDotsAndSpaces(cut) || doc.id;
  return name.toLowerCase().endsWith('.txt') ? name : `${name}.txt`;
}

/** The text without dots and spaces at either end, by index (no regular expression over the whole of a long name). */
function trimDotsAndSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === '.' || text[start] === ' ')) start += 1;
  while (end > start && (text[end - 1] === '.' || text[end - 1] === ' ')) end -= 1;
  return text.slice(start, end);
}

/** `filename*`'s value: percent-encoded UTF-8 but for unreserved characters, all of them RFC 8187 attr-chars (`'()*` encoded too). */
const encodeExtValue = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment; filename="..."` with an ASCII stand-in (every character
 * outside printable ASCII, and `"`, `\` and `%`, made `_`), plus
 * `filename*=UTF-8''...` when the stand-in is not the name itself (RFC 6266
 * section 4.3: a recipient that understands `filename*` uses it). Always an
 * attachment: a browser saves the file rather than showing, on the API's
 * origin, an HTML page someone captured.
 */
export function attachmentDisposition(filename: string): string {
  const fallback = [...filename]
    .map((c) => (c >= ' ' && c <= '~' && c !== '"' && c !== '\\' && c !== '%' ? c : '_'))
    .join('');
  const plain = `attachment; filename="${fallback}"`;
  return fallback === filename ? plain : `${plain}; filename*=UTF-8''${encodeExtValue(filename)}`;
}
