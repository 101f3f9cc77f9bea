import { splitLines } from '../../core/chunking.js';
import { LIMITS } from '../../core/limits.js';
import type { Metadata } from '../../core/metadata.js';
import type { GrepCandidate, LibraryRef } from '../../core/model.js';
import { DOCUMENT_KINDS } from '../../core/model.js';
import type { GrepScan } from '../../core/ports.js';
import { filterClauses } from './opensearch-filter.js';
import {
  generationFilter,
  type Hit,
  type IndexRequests,
  libraryFilter,
  SEARCH_QS,
} from './opensearch-index-requests.js';

/**
 * Grep on the OpenSearch search index: the `grep` wildcard field's
 * line-aligned segments (written by put), and the scan that lists a
 * library's candidate documents newest first, narrowed by that field where
 * it answers exactly, and fetches their texts in batches of bounded size.
 * Apart from the search legs: it ranks nothing, and bounds what it reads.
 */

/** Grep segments are at most this long; a longer line is cut into pieces overlapping by the longest pattern. */
const SEGMENT_CHARS = 4096;
/** Grep candidates listed per search (ids and text sizes only: a few kB). */
const GREP_LIST_BATCH = 256;
/**
 * Text fetched per request while grep reads: up to this many bytes, or one
 * document alone (larger than that, or of an unknown size: written before
 * `text_bytes`). The core stops asking once its page budget is spent
 * (core/grep.ts), so a page fetches at most its budget plus this much or one
 * document, and a Lambda holds one such batch at a time, never a whole page.
 */
export const GREP_FETCH_BYTES = 4 * 1024 * 1024;
const GREP_FETCH_DOCUMENTS = 64;

/** Line-aligned segments of at most SEGMENT_CHARS; every line (so every match) lies whole in one segment. */
export function grepSegments(text: string): string[] {
  const segments: string[] = [];
  let current = '';
  const overlap = LIMITS.grepPatternChars - 1;
  for (const line of splitLines(text)) {
    if (line.length > SEGMENT_CHARS) {
      if (current) segments.push(current);
      current = '';
      for (let at = 0; at < line.length; at += SEGMENT_CHARS - overlap) {
        segments.push(line.slice(at, at + SEGMENT_CHARS));
        if (at + SEGMENT_CHARS >= line.length) break;
      }
      continue;
    }
    if (current && current.length + 1 + line.length > SEGMENT_CHARS) {
      segments.push(current);
      current = line;
    } else {
      current = current ? `${current}\n${line}` : line;
    }
  }
  if (current) segments.push(current);
  return segments;
}

const escapeWildcard = (pattern: string) => pattern.replace(/[\\*?]/g, (c) => `\\${c}`);

/** The wildcard field folds case like Java; outside ASCII that may differ from JavaScript, so scan instead. */
const canNarrowGrep = (scan: GrepScan) => scan.caseSensitive || /^[\x20-\x7e]*$/.test(scan.pattern);

/**
 * Lists the candidates (ids and text sizes, GREP_LIST_BATCH at a time,
 * newest first), then fetches their texts in batches of at most
 * GREP_FETCH_BYTES, each only when the caller asks for its first document:
 * a caller that stops (its page budget spent) leaves the rest unread.
 */
export async function* grepScan(
  requests: IndexRequests,
  ref: LibraryRef,
  scan: GrepScan,
): AsyncIterable<GrepCandidate> {
  // The caller's filter confines the listing and the fetches alike (a document patched out of it meanwhile is not read).
  const documents: unknown[] = [
    ...libraryFilter(ref),
    ...generationFilter(scan.generation),
    { terms: { kind: [...DOCUMENT_KINDS] } },
    ...filterClauses(scan.filter),
  ];
  const filter: unknown[] = [...documents];
  if (scan.itemId) filter.push({ term: { item_id: scan.itemId } });
  if (canNarrowGrep(scan)) {
    filter.push({
      wildcard: { grep: { value: `*${escapeWildcard(scan.pattern)}*`, case_insensitive: !scan.caseSensitive } },
    });
  }
  const resume = scan.startAt ?? scan.startAfter;
  if (resume) {
    const { createdAt, id } = resume;
    filter.push({
      bool: {
        should: [
          { range: { content_date: { lt: createdAt } } },
          {
            bool: {
              filter: [
                { term: { content_date: createdAt } },
                { range: { item_id: scan.startAt ? { lte: id } : { lt: id } } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
  }
  let after: unknown[] | undefined;
  for (;;) {
    const body = await requests.call<{ hits: { hits: Array<Hit<{ item_id: string; text_bytes?: number }>> } }>(
      'index.grep',
      {
        method: 'POST',
        path: `/${requests.itemsIndex}/_search`,
        querystring: SEARCH_QS,
        body: {
          size: GREP_LIST_BATCH,
          _source: ['item_id', 'text_bytes'],
          query: { bool: { filter } },
          sort: [{ content_date: 'desc' }, { item_id: 'desc' }],
          ...(after ? { search_after: after } : {}),
        },
      },
    );
    const hits = body?.hits?.hits ?? [];
    for (const batch of fetchBatches(hits.map((hit) => hit._source))) {
      const texts = await grepTexts(requests, documents, batch);
      for (const id of batch) {
        const candidate = texts.get(id);
        // Removed since it was listed: it is no longer in the library.
        if (candidate) yield candidate;
      }
    }
    if (hits.length < GREP_LIST_BATCH) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/** The texts of these documents of the library (one request), by id. */
async function grepTexts(
  requests: IndexRequests,
  documents: unknown[],
  itemIds: string[],
): Promise<Map<string, GrepCandidate>> {
  const body = await requests.call<{
    hits: {
      hits: Array<
        Hit<{
          item_id: string;
          title: string | null;
          source_ref: string | null;
          content_date: string;
          text: string;
          metadata?: Metadata;
        }>
      >;
    };
  }>('index.grep', {
    method: 'POST',
    path: `/${requests.itemsIndex}/_search`,
    querystring: SEARCH_QS,
    body: {
      size: itemIds.length,
      _source: ['item_id', 'title', 'source_ref', 'content_date', 'text', 'metadata'],
      query: { bool: { filter: [...documents, { terms: { item_id: itemIds } }] } },
    },
  });
  const texts = new Map<string, GrepCandidate>();
  for (const { _source: s } of body?.hits?.hits ?? []) {
    texts.set(s.item_id, {
      itemId: s.item_id,
      title: s.title ?? null,
      sourceRef: s.source_ref ?? null,
      contentDate: s.content_date,
      text: s.text,
      metadata: s.metadata ?? {},
    });
  }
  return texts;
}

/**
 * Listed candidates in order, cut into batches whose texts add up to at most
 * GREP_FETCH_BYTES (and GREP_FETCH_DOCUMENTS); a text larger than that, or
 * of unknown size, is a batch of its own.
 */
export function fetchBatches(listed: ReadonlyArray<{ item_id: string; text_bytes?: number }>): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const { item_id: id, text_bytes: size } of listed) {
    const known = typeof size === 'number' && Number.isFinite(size) && size >= 0;
    if (batch.length && (!known || bytes + size > GREP_FETCH_BYTES || batch.length >= GREP_FETCH_DOCUMENTS)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(id);
    bytes += known ? size : Number.POSITIVE_INFINITY;
  }
  if (batch.length) batches.push(batch);
  return batches;
}
