import { CaptureRejected } from '../../core/errors.js';
import { htmlToText } from './html.js';
import { decodeText } from './text-decoding.js';

type TextFormat = 'html' | 'json' | 'markdown' | 'csv' | 'plain';

const CONTENT_TYPES: Record<TextFormat, string> = {
  html: 'text/html',
  json: 'application/json',
  markdown: 'text/markdown',
  csv: 'text/csv',
  plain: 'text/plain',
};

const BY_EXTENSION: Record<string, TextFormat> = {
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  csv: 'csv',
};

const baseType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** What the declared type or filename says, among text formats only (a binary declared type says nothing here). */
function declaredFormat(declaredContentType: string, filename: string): TextFormat | null {
  const type = baseType(declaredContentType);
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/csv') return 'csv';
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || null;
}

/** The first tag of an HTML document (matched where the leading declaration and comments end). */
const HTML_FIRST_TAG = /<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/iy;
const XML_DECLARATION = /<\?xml[^>]*>/y;

/**
 * An HTML document announces itself in its first tag, whatever it was
 * declared as; an XML declaration and comments may come before it. Read by
 * position, one pass: a single pattern for "comments, then a tag" lets a
 * lazy comment body swallow the next comment's end, which backtracks
 * exponentially on a run of unclosed-looking comments (`<!---->` x 30).
 */
export function startsAsHtml(text: string): boolean {
  let at = skipSpace(text, 0);
  XML_DECLARATION.lastIndex = at;
  if (XML_DECLARATION.test(text)) at = skipSpace(text, XML_DECLARATION.lastIndex);
  while (text.startsWith('<!--', at)) {
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return false;
    at = skipSpace(text, end + 3);
  }
  HTML_FIRST_TAG.lastIndex = at;
  return HTML_FIRST_TAG.test(text);
}

const SPACE = /\s/;
function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && SPACE.test(text[at]!)) at += 1;
  return at;
}

/**
 * Text without a magic number: decoded (UTF-8, UTF-16 with BOM, Latin-1),
 * then read as HTML (visible text), JSON (checked, kept as written),
 * Markdown, CSV or plain text. Text formats keep the file's own lines.
 */
export function extractTextFile(
  bytes: Uint8Array,
  declaredContentType: string,
  filename: string,
): { text: string; contentType: string } {
  const text = decodeText(bytes);
  const format = startsAsHtml(text) ? 'html' : (declaredFormat(declaredContentType, filename) ?? 'plain');
  if (format === 'html') return { text: htmlToText(text), contentType: CONTENT_TYPES.html };
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch {
      throw new CaptureRejected('extraction_failed', 'the file is not valid JSON');
    }
  }
  return { text, contentType: CONTENT_TYPES[format] };
}
