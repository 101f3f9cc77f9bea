import { setImmediate as nextTurn } from 'node:timers/promises';
import { excerptAround } from './chunking.js';
import { decodeCursor, encodeCursor, fingerprint, isCount, isNewestFirstKey, type Page } from './cursor.js';
import { type Filter, filterFingerprint } from './filter.js';
import { LIMITS } from './limits.js';
import type { Metadata } from './metadata.js';
import type { LibraryRef } from './model.js';
import type { DocumentStore, GrepScan, SearchIndex } from './ports.js';

export interface GrepRequest {
  pattern: string;
  caseSensitive: boolean;
  fileId?: string;
  limit: number;
  cursor?: string;
  /** Only documents matching it are read (API.md, "Filters"). */
  filter?: Filter;
  /** When the answer must be on its way (milliseconds since the epoch; the request's deadline): the page ends by then. */
  deadline?: number;
}

export interface GrepResult {
  file_id: string;
  title: string | null;
  source_ref: string | null;
  line: number;
  snippet: string;
  content_date: string;
  metadata: Metadata;
}

/**
 * How much one page of grep may do (docs/api-notes.md, "Grep pages"). A
 * pattern the index cannot narrow (shorter than 3 characters, or
 * case-insensitive outside ASCII) reads every document of the library; these
 * keep one request from holding the process (locally, the one main thread)
 * or a Lambda for long. A page that runs out answers what it found, with
 * `has_more` and a cursor at the place it reached.
 */
export interface GrepBudgets {
  /**
   * UTF-8 bytes of document text one page reads: it stops at the first
   * document boundary at or past this (so at most this plus one document).
   */
  pageBytes: number;
  /** Milliseconds one page may scan; the request's deadline may end it sooner. */
  pageMs: number;
  /** Milliseconds of scanning between two yields to the event loop, so other requests are served meanwhile. */
  sliceMs: number;
}

/**
 * 32 MiB: 16 of the largest text captures (2 MiB), thousands of ordinary
 * documents; 0.2 s of scanning prose at 150 MB/s (about 1 s of lines of
 * a character or two, the slowest bytes), so on a healthy machine a page
 * ends by bytes, inside its time. It bounds the cluster work one request
 * causes and what it pulls from OpenSearch into a 1 GiB Lambda (texts come
 * a few MiB at a time and are dropped once scanned). 3 s: a slow cluster or
 * a busy machine still answers a page long before API Gateway's 29 s, and
 * a client walking the pages sees progress. 10 ms between yields: another
 * request waits about that long for the main thread at each of its steps
 * (20 ms doubled the wait of a health check during a grep, for no gain).
 */
export const GREP_BUDGETS: GrepBudgets = { pageBytes: 32 * 1024 * 1024, pageMs: 3_000, sliceMs: 10 };

/** Within a document the clock is read every so many lines or characters (a read per line would cost more than the match). */
const CHECK_EVERY_LINES = 1024;
const CHECK_EVERY_CHARS = 256 * 1024;

/**
 * The most lines a text can have: V8's longest string is under 2^29
 * characters, and a line takes at least one (its break).
 */
export const MAX_TEXT_LINES = 2 ** 29;

/**
 * Where a page stopped: in the document `id` (of `createdAt`), after its
 * first `line` lines (the last line shown, or the last one read when a budget
 * ran out); without `line`, after the whole document.
 */
interface GrepPosition {
  createdAt: string;
  id: string;
  line?: number;
}

const isGrepPosition = (v: unknown): v is GrepPosition =>
  isNewestFirstKey(v) && ((v as GrepPosition).line === undefined || isCount((v as GrepPosition).line, MAX_TEXT_LINES));

/** Where the adapter resumes: inside the cursor's document (inclusive), or after it. */
const resumeFrom = (position?: GrepPosition): Pick<GrepScan, 'startAt' | 'startAfter'> => {
  if (!position) return {};
  const key = { createdAt: position.createdAt, id: position.id };
  return position.line === undefined ? { startAfter: key } : { startAt: key };
};

/**
 * Literal, exhaustive line matching. The index narrows the documents (a
 * superset of those containing the pattern); this checks every line of each,
 * so nothing is ever missed and nothing is a regular expression. Each page
 * keeps to its budgets (GrepBudgets) and always moves past its cursor, so
 * walking the pages yields every matching line exactly once and ends.
 */
export class GrepService {
  constructor(
    private readonly deps: { index: SearchIndex; documents: Pick<DocumentStore, 'libraryGeneration'> },
    private readonly budgets: GrepBudgets = GREP_BUDGETS,
  ) {}

  async grep(ref: LibraryRef, request: GrepRequest): Promise<Page<GrepResult>> {
    const scope = fingerprint([
      'grep',
      ref.tenantId,
      ref.endUserId,
      request.pattern,
      request.caseSensitive,
      request.fileId ?? null,
      filterFingerprint(request.filter),
    ]);
    const position = decodeCursor(request.cursor, scope, isGrepPosition);
    const needle = request.caseSensitive ? request.pattern : request.pattern.toLowerCase();
    // Only the library's live generation is read (ports.ts, GenerationScoped); no library, nothing to read.
    const generation = await this.deps.documents.libraryGeneration(ref, { readOnly: true });
    if (generation === null) return { items: [], hasMore: false, nextCursor: null };

    const { pageBytes, pageMs, sliceMs } = this.budgets;
    const startedAt = Date.now();
    const stopAt = Math.min(startedAt + pageMs, request.deadline ?? Number.POSITIVE_INFINITY);
    let sliceStartedAt = startedAt;
    /** Gives the event loop a turn once this slice has run long enough. */
    const pause = async () => {
      if (Date.now() - sliceStartedAt < sliceMs) return;
      await nextTurn();
      sliceStartedAt = Date.now();
    };

    const found: Array<GrepResult & { position: GrepPosition }> = [];
    let bytesRead = 0;
    /** Where the scan stands once it moved past the cursor (null until then: no budget ends a page before). */
    let reached: GrepPosition | null = null;
    let outOfBudget = false;

    const candidates = this.deps.index.grepCandidates(ref, {
      generation,
      pattern: request.pattern,
      caseSensitive: request.caseSensitive,
      itemId: request.fileId,
      filter: request.filter,
      ...resumeFrom(position),
    });
    scan: for await (const doc of candidates) {
      await pause();
      bytesRead += Buffer.byteLength(doc.text, 'utf8');
      const resumeAt = position?.line !== undefined && doc.itemId === position.id ? position.line : 0;
      // Lines split as splitLines splits them (\r\n, \r, \n), one at a time: a long text is never copied whole.
      const breaks = /\r\n|\r|\n/g;
      let start = 0;
      let linesSinceCheck = 0;
      let charsSinceCheck = 0;
      for (let i = 0; ; i++) {
        const lineBreak = breaks.exec(doc.text);
        const end = lineBreak ? lineBreak.index : doc.text.length;
        if (i >= resumeAt) {
          const line = doc.text.slice(start, end);
          const searched = request.caseSensitive ? line : line.toLowerCase();
          const hit = searched.indexOf(needle);
          if (hit >= 0) {
            // Where the match is in the line itself: lower case may be longer ("İ" is two units lowered).
            const at = offsetInLine(line, searched, hit);
            const matchLength = offsetInLine(line, searched, hit + needle.length) - at;
            const prefix = `${i + 1}: `;
            found.push({
              file_id: doc.itemId,
              title: doc.title,
              source_ref: doc.sourceRef,
              line: i + 1,
              snippet: prefix + excerptAround(line, at, matchLength, LIMITS.snippetChars - prefix.length),
              content_date: doc.contentDate,
              metadata: doc.metadata ?? {},
              position: { createdAt: doc.contentDate, id: doc.itemId, line: i + 1 },
            });
            if (found.length > request.limit) break scan;
          }
        }
        if (!lineBreak) break;
        charsSinceCheck += end - start;
        start = end + lineBreak[0].length;
        if (++linesSinceCheck >= CHECK_EVERY_LINES || charsSinceCheck >= CHECK_EVERY_CHARS) {
          linesSinceCheck = 0;
          charsSinceCheck = 0;
          // Out of time inside a document: the next page resumes after this line (one was read past the cursor).
          if ((reached || i >= resumeAt) && Date.now() >= stopAt) {
            reached = { createdAt: doc.contentDate, id: doc.itemId, line: i + 1 };
            outOfBudget = true;
            break scan;
          }
          await pause();
        }
      }
      reached = { createdAt: doc.contentDate, id: doc.itemId };
      // Checked before asking for the next document: the adapter is not asked for one this page would not scan.
      if (bytesRead >= pageBytes || Date.now() >= stopAt) {
        outOfBudget = true;
        break;
      }
    }

    if (found.length > request.limit) {
      const page = found.slice(0, request.limit);
      return {
        items: page.map(withoutPosition),
        hasMore: true,
        nextCursor: encodeCursor(scope, page[page.length - 1]!.position),
      };
    }
    // Out of budget: every line before `reached` was read, so the next page starts there (maybe after a short or empty page).
    return {
      items: found.map(withoutPosition),
      hasMore: outOfBudget,
      nextCursor: outOfBudget && reached ? encodeCursor(scope, reached) : null,
    };
  }
}

const withoutPosition = ({ position: _position, ...result }: GrepResult & { position: GrepPosition }): GrepResult =>
  result;

/**
 * The offset in `line` of what starts at `at` in `searched` (the line, or its
 * lower case): the same unless lower-casing changed its length ("İ" lowers
 * to two UTF-16 units), then counted character by character.
 */
function offsetInLine(line: string, searched: string, at: number): number {
  if (searched.length === line.length) return at;
  let inLine = 0;
  let inSearched = 0;
  for (const character of line) {
    if (inSearched >= at) break;
    inSearched += character.toLowerCase().length;
    inLine += character.length;
  }
  return inLine;
}
