import { documentBlobs } from './bucket/document-blobs.js';
import { splitLines } from './chunking.js';
import { notFound, notReady } from './errors.js';
import { attachmentDisposition, downloadName } from './file-names.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { BlobStore, CallerBuckets, Clock, DocumentStore, SearchIndex } from './ports.js';

/**
 * Reading a document back (API.md, "Reading a document back"): its text
 * by lines, numbered as grep and chat number them, and its file as
 * captured. Both read only the caller's library (404 elsewhere).
 */

/** GET /v1/documents/{id}/content: one page of the document's lines. */
export interface DocumentContentPage {
  id: string;
  /** Lines of the whole text, counted as `line_count` is everywhere (a final newline ends the last line). */
  line_count: number;
  from_line: number;
  /** `lines[k]` is line `from_line + k`. */
  lines: string[];
  /** Where the next page starts; null when this page reaches the end (or starts past it). */
  next_from_line: number | null;
}

/**
 * A page holds at most `lines` lines and stops before the line that would
 * take its lines past this many bytes of JSON (always holding one line, however long):
 * a page stays a quick answer however long the lines are.
 */
export const CONTENT_PAGE_BYTES = 1024 * 1024;

/** GET /v1/documents/{id}/file: the file as captured, with the headers it is sent with. */
export interface DocumentFile {
  contentType: string;
  filename: string;
  /** The Content-Disposition header (file-names.ts). */
  disposition: string;
  sha256: string;
  /** The file itself: bytes, or a text push's text. */
  body?: Uint8Array | string;
  /** Or a short-lived URL it can be fetched at (AWS: a presigned S3 URL), answered with the same headers. */
  link?: string;
}

/**
 * How long a download link lives (AWS: a presigned S3 URL). Enough for a
 * client to follow the redirect, or a person to click a link a page was just
 * given; a role session is renewed five minutes before it ends, so a URL
 * signed with one lives its whole time.
 */
export const FILE_LINK_SECONDS = 300;

/**
 * The media type a caller accepts to be given a file's link as JSON
 * (`{url, expires_in_seconds, filename, content_type}`) rather than
 * redirected to it: a browser page, which can neither read a redirect's
 * Location nor fetch another origin under its Content-Security-Policy.
 */
export const FILE_LINK_MEDIA_TYPE = 'application/vnd.library.file-link+json';

export interface DocumentReaderDeps {
  documents: Pick<DocumentStore, 'get' | 'libraryGeneration'>;
  index: Pick<SearchIndex, 'documentText'>;
  blobs: BlobStore;
  buckets?: CallerBuckets;
  clock?: Clock;
  /**
   * Answer a file kept in blob storage with a short-lived link rather than
   * its bytes, where the store makes links (the AWS stack: API Gateway
   * then carries no binary body). Absent: the bytes, through the service.
   */
  links?: { expiresInSeconds: number };
}

/** The text's lines as grep numbers them (splitLines), without the empty "line" after a final newline (countLines). */
export function documentLines(text: string): string[] {
  const lines = splitLines(text);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export class DocumentReader {
  constructor(private readonly deps: DocumentReaderDeps) {}

  /**
   * Lines `fromLine` to `fromLine + lines - 1` of the document's text, read
   * from the index in the library's live generation (the copy grep reads),
   * so a grep hit's line N is `lines[N - from_line]`. 409 `not_ready` while
   * the text is not known yet, and for a failed document (it has none).
   * A `fromLine` past the end answers no lines and a null `next_from_line`.
   */
  async content(
    ref: LibraryRef,
    id: string,
    request: { fromLine: number; lines: number },
  ): Promise<DocumentContentPage> {
    const text = await this.text(ref, await this.document(ref, id));
    const all = documentLines(text);
    const start = request.fromLine - 1;
    const end = Math.min(all.length, start + request.lines);
    const lines: string[] = [];
    let bytes = 0;
    for (let i = start; i < end; i++) {
      const size = Buffer.byteLength(JSON.stringify(all[i]!), 'utf8') + 1;
      if (lines.length > 0 && bytes + size > CONTENT_PAGE_BYTES) break;
      lines.push(all[i]!);
      bytes += size;
    }
    const next = start + lines.length;
    return {
      id,
      line_count: all.length,
      from_line: request.fromLine,
      lines,
      next_from_line: next < all.length ? next + 1 : null,
    };
  }

  /**
   * The document's file: a captured file's bytes (or a link to them), with
   * the content type it was stored with; a text push's text as
   * `text/plain; charset=utf-8`. A file kept in the tenant's bucket is read
   * there (a bucket no longer registered: 404, the file is the customer's
   * alone now).
   */
  async file(ref: LibraryRef, id: string): Promise<DocumentFile> {
    const doc = await this.document(ref, id);
    const filename = downloadName(doc);
    const disposition = attachmentDisposition(filename);
    const base = { filename, disposition, sha256: doc.sha256 };
    if (!doc.blobKey) return { ...base, contentType: 'text/plain; charset=utf-8', body: await this.text(ref, doc) };
    const links = this.deps.links;
    const download = await documentBlobs(this.deps).download(
      doc,
      links
        ? { expiresInSeconds: links.expiresInSeconds, contentType: doc.contentType, contentDisposition: disposition }
        : undefined,
    );
    switch (download.kind) {
      case 'bytes':
        return { ...base, contentType: doc.contentType, body: download.bytes };
      case 'link':
        return { ...base, contentType: doc.contentType, link: download.url };
      case 'gone':
        throw notFound(
          `the file of document ${id} is kept in a bucket this tenant no longer has registered, as object "${download.objectKey}"; the service reads it no more (read it in that bucket)`,
        );
      default:
        throw notFound(`the file of document ${id} is missing from storage`);
    }
  }

  private async document(ref: LibraryRef, id: string): Promise<DocumentRecord> {
    const doc = await this.deps.documents.get(ref, id);
    if (!doc) throw notFound(`document ${id} not found`);
    return doc;
  }

  /** The document's text as the index holds it in the library's live generation (what grep reads). */
  private async text(ref: LibraryRef, doc: DocumentRecord): Promise<string> {
    if (doc.status === 'failed') {
      throw notReady(
        `document ${doc.id} failed and has no text to read${doc.failureReason ? ` (${doc.failureReason})` : ''}`,
      );
    }
    if (doc.passageCount === null)
      throw notReady(
        `document ${doc.id} is not ready: its text is still being extracted (status processing); try again shortly`,
      );
    const generation = await this.deps.documents.libraryGeneration(ref, { readOnly: true });
    const text = generation === null ? null : await this.deps.index.documentText(ref, doc.id, generation);
    // The record was there a moment ago: a deletion (or a replacement) removed the document meanwhile.
    if (text === null) throw notFound(`document ${doc.id} not found`);
    return text;
  }
}
