import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../../../client/src/index.js';

interface PagesState<T> {
  items: T[];
  /** The last page fetched: its cursor leads on. */
  last: Page<T> | null;
  loading: 'first' | 'more' | null;
  error: unknown;
  /** A query was run (so "nothing found" can be said). */
  ran: boolean;
}

const EMPTY = { items: [], last: null, loading: null, error: null, ran: false };

/**
 * A list read page by page through the client's cursor: `run` fetches the
 * first page of a new query (an older one still answering is aborted and
 * ignored), `more` appends the next. A page may hold nothing yet say more
 * is coming (grep scans within a budget): up to `skipEmpty` such pages are
 * walked past, so "nothing found" is only said when it is true.
 */
export function usePages<T>({ skipEmpty = 0 }: { skipEmpty?: number } = {}) {
  const [state, setState] = useState<PagesState<T>>(EMPTY);
  const run = useRef<{ id: number; controller: AbortController }>({ id: 0, controller: new AbortController() });

  useEffect(() => () => run.current.controller.abort(), []);

  const walk = useCallback(
    async (page: Page<T>): Promise<Page<T>> => {
      let current = page;
      for (let skipped = 0; !current.items.length && current.hasMore && skipped < skipEmpty; skipped++) {
        const next = await current.nextPage();
        if (!next) break;
        current = next;
      }
      return current;
    },
    [skipEmpty],
  );

  const fetchInto = useCallback(
    async (mode: 'first' | 'more', fetch: (signal: AbortSignal) => Promise<Page<T> | null>) => {
      if (mode === 'first') run.current.controller.abort();
      const id = mode === 'first' ? run.current.id + 1 : run.current.id;
      const controller = mode === 'first' ? new AbortController() : run.current.controller;
      run.current = { id, controller };
      setState((s) => (mode === 'first' ? { ...EMPTY, ran: true, loading: 'first' } : { ...s, loading: 'more' }));
      try {
        const fetched = await fetch(controller.signal);
        const page = fetched && (await walk(fetched));
        if (run.current.id !== id) return;
        setState((s) => ({
          items: mode === 'first' ? (page?.items ?? []) : [...s.items, ...(page?.items ?? [])],
          last: page,
          loading: null,
          error: null,
          ran: true,
        }));
      } catch (error) {
        if (run.current.id === id) setState((s) => ({ ...s, loading: null, error }));
      }
    },
    [walk],
  );

  /** A new query: `first` gets its first page with the signal that aborts it when another starts. */
  const start = useCallback(
    (first: (signal: AbortSignal) => Promise<Page<T>>) => fetchInto('first', first),
    [fetchInto],
  );

  const last = state.last;
  const more = useCallback(
    () => (last ? fetchInto('more', () => last.nextPage()) : Promise.resolve()),
    [last, fetchInto],
  );

  return { ...state, hasMore: Boolean(state.last?.hasMore), start, more };
}
