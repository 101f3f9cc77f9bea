import { useCallback, useEffect, useState } from 'react';
import { type Document, type Library, LibraryAbortError } from '../../../../client/src/index.js';
import { apiFilter, type ListQuery } from './filters';

export interface ListedPage {
  documents: Document[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

/** At most this many API pages are read to fill one page filtered by status, so a rare status never hangs the list. */
const MAX_SCANNED_PAGES = 20;
/** How often a page with documents still processing is read again, so their status moves on its own. */
const REFRESH_MS = 3000;

/**
 * One page of the list from `cursor`. Status is not one of the API's filter
 * fields, so with a status chosen the list reads page after page and keeps
 * the documents in that status until it has a page's worth (or has read
 * MAX_SCANNED_PAGES); the next page goes on from where it stopped.
 */
export async function loadPage(
  library: Library,
  query: ListQuery,
  scope: { end_user_id?: string },
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<ListedPage> {
  const params = { ...scope, limit: query.limit, filter: apiFilter(query) };
  const found: Document[] = [];
  let next = cursor;
  for (let read = 0; read < MAX_SCANNED_PAGES; read++) {
    const page = await library.documents.list({ ...params, cursor: next }, { signal });
    found.push(...page.items.filter((doc) => !query.status || doc.status === query.status));
    next = page.data.has_more && page.data.next_cursor ? page.data.next_cursor : undefined;
    if (!next || found.length >= query.limit) break;
  }
  return { documents: found, nextCursor: next ?? null };
}

/**
 * The Documents page's paging: a stack of cursors (previous pages are read
 * again from theirs), reset whenever the filters or the library change.
 */
export function useDocumentPages(library: Library, query: ListQuery, scope: { end_user_id?: string }) {
  const key = JSON.stringify([query, scope]);
  // The cursors belong to the query they came from: another query starts again from the first page.
  const [paging, setPaging] = useState<{ key: string; cursors: (string | undefined)[] }>({ key, cursors: [undefined] });
  const cursors = paging.key === key ? paging.cursors : [undefined];
  const cursor = cursors[cursors.length - 1];
  // What was read, and for which query and cursor: the list is loading until it answers the one asked now.
  const asked = JSON.stringify([key, cursor ?? null]);
  const [result, setResult] = useState<{ asked: string; page: ListedPage | null; error: unknown } | null>(null);
  const [refreshes, setRefreshes] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `asked` stands for query, scope and cursor; `refreshes` reads the same page again.
  useEffect(() => {
    const controller = new AbortController();
    loadPage(library, query, scope, cursor, controller.signal)
      .then((page) => setResult({ asked, page, error: null }))
      .catch((error) => {
        if (error instanceof LibraryAbortError || controller.signal.aborted) return;
        // A refresh that failed keeps the rows it had.
        setResult((previous) => ({ asked, page: previous?.asked === asked ? previous.page : null, error }));
      });
    return () => controller.abort();
  }, [library, asked, refreshes]);

  const current = result?.asked === asked ? result : null;
  const loading = current === null;
  // While another page loads, the last one stays under the loading overlay.
  const page = current?.page ?? result?.page ?? null;

  // Documents still processing: read the page again until they settle.
  const processing = current?.page?.documents.some((doc) => doc.status === 'processing') ?? false;
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => setRefreshes((n) => n + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, [processing]);

  const nextCursor = current?.page?.nextCursor ?? null;
  return {
    page,
    loading,
    error: current?.error ?? null,
    pageNumber: cursors.length,
    hasPrevious: cursors.length > 1,
    hasNext: nextCursor !== null,
    next: () => {
      if (nextCursor) setPaging({ key, cursors: [...cursors, nextCursor] });
    },
    previous: () => setPaging({ key, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }),
    reload: useCallback(() => setRefreshes((n) => n + 1), []),
  };
}
