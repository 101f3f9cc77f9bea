import { useCallback, useEffect, useRef, useState } from 'react';
import { type Document, type Library, LibraryAbortError } from '../../../../client/src/index.js';
import { apiFilter, type ListQuery } from './filters';

/**
 * Where a page of the list starts: the API page read from `cursor` (null: the
 * first), after the document `after` when the page before stopped inside it
 * (a status filter can find more than a page's worth in one API page).
 */
export interface Position {
  cursor: string | null;
  after: string | null;
}

export interface ListedPage {
  /** At most `limit` documents. */
  documents: Document[];
  /** Where the next page starts; null on the last page. */
  next: Position | null;
}

/** At most this many API pages are read to fill one page filtered by status, so a rare status never hangs the list. */
const MAX_SCANNED_PAGES = 20;
/** A page with documents still processing is read again this long after the last read answered... */
const REFRESH_MS = 3000;
/** ...half as long again at each round (twice as long after a failed read), at most this long... */
const MAX_REFRESH_MS = 30_000;
/** ...and no more on its own once it has been read again for this long ("Refresh" still reads it). */
const REFRESH_FOR_MS = 10 * 60_000;

/**
 * One page of the list from `from` (null: the first). Status is not one of
 * the API's filter fields, so with a status chosen the list reads page after
 * page and keeps the documents in that status until it has a page's worth
 * (or has read MAX_SCANNED_PAGES); the next page goes on from where it
 * stopped, inside the last API page read when that held more.
 */
export async function loadPage(
  library: Library,
  query: ListQuery,
  scope: { end_user_id?: string },
  from: Position | null,
  signal: AbortSignal,
): Promise<ListedPage> {
  const params = { ...scope, limit: query.limit, filter: apiFilter(query) };
  const matches = (doc: Document) => !query.status || doc.status === query.status;
  const found: Document[] = [];
  let cursor = from?.cursor ?? null;
  let after = from?.after ?? null;
  for (let read = 0; read < MAX_SCANNED_PAGES; read++) {
    const page = await library.documents.list({ ...params, cursor: cursor ?? undefined }, { signal });
    const items = page.items;
    // Going on inside an API page read before: after the last document shown (from its start if that one is gone).
    const start = after ? items.findIndex((doc) => doc.id === after) + 1 : 0;
    after = null;
    for (const doc of items.slice(start)) {
      if (!matches(doc)) continue;
      // A page's worth, and more in this API page: the next page goes on after the last one shown.
      if (found.length >= query.limit)
        return { documents: found, next: { cursor, after: found[found.length - 1]!.id } };
      found.push(doc);
    }
    const next = page.data.has_more && page.data.next_cursor ? page.data.next_cursor : null;
    if (!next) return { documents: found, next: null };
    cursor = next;
    if (found.length >= query.limit) break;
  }
  return { documents: found, next: { cursor, after: null } };
}

interface Result {
  asked: string;
  library: Library;
  /** The scope it was read in: the rows stay shown while another page of the same library loads, never another's. */
  scope: string;
  page: ListedPage | null;
  error: unknown;
}

/**
 * The Documents page's paging: a stack of positions (previous pages are read
 * again from theirs), reset whenever the filters or the library change. A
 * page with documents still processing is read again on its own, each read
 * once the last has answered, less often as time goes, for ten minutes.
 */
export function useDocumentPages(library: Library, query: ListQuery, scope: { end_user_id?: string }) {
  const scopeKey = JSON.stringify(scope);
  const key = JSON.stringify([query, scope]);
  // The positions belong to the query they came from: another query starts again from the first page.
  const [paging, setPaging] = useState<{ key: string; positions: (Position | null)[] }>({ key, positions: [null] });
  const positions = paging.key === key ? paging.positions : [null];
  const position = positions[positions.length - 1] ?? null;
  // What was read, and for which query and position: the list is loading until it answers the one asked now.
  const asked = JSON.stringify([key, position]);
  const [result, setResult] = useState<Result | null>(null);
  const [refreshes, setRefreshes] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `asked` stands for query, scope and position; `refreshes` reads the same page again.
  useEffect(() => {
    const controller = new AbortController();
    loadPage(library, query, scope, position, controller.signal)
      .then((page) => setResult({ asked, library, scope: scopeKey, page, error: null }))
      .catch((error) => {
        if (error instanceof LibraryAbortError || controller.signal.aborted) return;
        // A refresh that failed keeps the rows it had.
        setResult((previous) => ({
          asked,
          library,
          scope: scopeKey,
          page: previous?.asked === asked && previous.library === library ? previous.page : null,
          error,
        }));
      });
    return () => controller.abort();
  }, [library, asked, refreshes]);

  const current = result?.asked === asked && result.library === library ? result : null;
  const loading = current === null;
  // While another page of the same library loads (other filters, another page), the last one stays under the
  // loading overlay; after a switch to another library (or key), no rows until its own have come.
  const sameLibrary = result !== null && result.library === library && result.scope === scopeKey;
  const page = current?.page ?? (sameLibrary ? result.page : null);

  // Documents still processing: the page is read again, each time once the last read has answered.
  const processing = current?.page?.documents.some((doc) => doc.status === 'processing') ?? false;
  const auto = useRef({ asked: '', since: 0, rounds: 0 });
  const [stoppedFor, setStoppedFor] = useState<string | null>(null);
  useEffect(() => {
    if (!current || !processing) return;
    if (auto.current.asked !== current.asked) auto.current = { asked: current.asked, since: Date.now(), rounds: 0 };
    const { since, rounds } = auto.current;
    if (Date.now() - since >= REFRESH_FOR_MS) {
      setStoppedFor(current.asked);
      return;
    }
    const delay = Math.min(REFRESH_MS * 1.5 ** rounds, MAX_REFRESH_MS) * (current.error ? 2 : 1);
    const timer = setTimeout(() => {
      auto.current.rounds += 1;
      setRefreshes((n) => n + 1);
    }, delay);
    return () => clearTimeout(timer);
  }, [current, processing]);

  const next = current?.page?.next ?? null;
  return {
    page,
    loading,
    error: current?.error ?? null,
    /** Documents on this page are still processing, and it is no longer read again on its own. */
    refreshStopped: processing && stoppedFor === asked,
    pageNumber: positions.length,
    hasPrevious: positions.length > 1,
    hasNext: next !== null,
    next: () => {
      if (next) setPaging({ key, positions: [...positions, next] });
    },
    previous: () => setPaging({ key, positions: positions.length > 1 ? positions.slice(0, -1) : positions }),
    /** Reads the page again now, and on its own again for a while if documents are still processing. */
    reload: useCallback(() => {
      auto.current = { asked: '', since: 0, rounds: 0 };
      setStoppedFor(null);
      setRefreshes((n) => n + 1);
    }, []),
  };
}
