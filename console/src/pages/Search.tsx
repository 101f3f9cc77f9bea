import { Button, Checkbox, Group, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SearchParams, SearchResult } from '../../../client/src/index.js';
import { queryTerms } from '../components/ask/highlight';
import { MoreResults } from '../components/ask/MoreResults';
import { SearchResultCard } from '../components/ask/SearchResultCard';
import { usePages } from '../components/ask/usePages';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

type Kind = SearchResult['kind'];

const KINDS: { value: Kind; label: string }[] = [
  { value: 'file_excerpt', label: 'Documents' },
  { value: 'image', label: 'Images' },
  { value: 'chat', label: 'Chats' },
  { value: 'creation', label: 'Creations' },
];

/** What a search is asked with; it lives in the page's address (`#/search?q=...`), so Back returns to it. */
interface Query {
  q: string;
  kinds: Kind[];
  minScore: number;
  prefix: string;
}

const ALL_KINDS = KINDS.map((kind) => kind.value);
const isKind = (value: string): value is Kind => (ALL_KINDS as string[]).includes(value);

/** The query in the address, or null when there is none. */
function readQuery(address: URLSearchParams): Query | null {
  const q = address.get('q')?.trim();
  if (!q) return null;
  const kinds = (address.get('kind') ?? '').split(',').filter(isKind);
  const minScore = Number(address.get('min_score') ?? 0);
  return {
    q,
    kinds: kinds.length ? kinds : ALL_KINDS,
    minScore: minScore > 0 && minScore <= 1 ? minScore : 0,
    prefix: address.get('prefix') ?? '',
  };
}

/** The query as the address holds it: only what differs from the defaults. */
function writeQuery(query: Query): Record<string, string> {
  const address: Record<string, string> = { q: query.q };
  if (query.kinds.length < ALL_KINDS.length) address.kind = query.kinds.join(',');
  if (query.minScore > 0) address.min_score = String(query.minScore);
  if (query.prefix) address.prefix = query.prefix;
  return address;
}

/** The API's parameters for a query: every kind checked is no `kind` parameter. */
function searchParams(query: Query, scope: { end_user_id?: string }): SearchParams {
  const params: SearchParams = { q: query.q, ...scope };
  if (query.kinds.length < ALL_KINDS.length) params.kind = query.kinds.join(',');
  if (query.minScore > 0) params.min_score = query.minScore;
  if (query.prefix) params.filter = { source_ref: { prefix: query.prefix } };
  return params;
}

interface Form {
  text: string;
  kinds: Kind[];
  minScore: number | string;
  prefix: string;
}

const formOf = (query: Query | null): Form => ({
  text: query?.q ?? '',
  kinds: query?.kinds ?? ALL_KINDS,
  minScore: query?.minScore ?? 0,
  prefix: query?.prefix ?? '',
});

/** Search by meaning and words: the box, the kinds to keep, a minimum score and a source prefix; results page by page. */
export function Search() {
  const { library, scope } = useConsole();
  const [address, setAddress] = useSearchParams();
  const addressKey = address.toString();
  const query = useMemo(() => readQuery(new URLSearchParams(addressKey)), [addressKey]);
  const [form, setForm] = useState<Form>(() => formOf(query));
  const pages = usePages<SearchResult>();
  const { start } = pages;

  // Back and Forward change the address: the form shows the query it holds.
  useEffect(() => setForm(formOf(query)), [query]);

  const search = useCallback(() => {
    if (query) start((signal) => library.search(searchParams(query, scope), { signal }));
  }, [query, scope, library, start]);

  // A new query, other kinds, or another end user's library: search again.
  useEffect(() => search(), [search]);

  const terms = useMemo(() => queryTerms(query?.q ?? ''), [query]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = form.text.trim();
    if (!q) return;
    const minScore = typeof form.minScore === 'number' ? form.minScore : 0;
    const next = writeQuery({ q, kinds: form.kinds, minScore, prefix: form.prefix.trim() });
    // The same query again is searched again (the library may have changed since).
    if (new URLSearchParams(next).toString() === addressKey) search();
    else setAddress(next);
  };

  const changeKinds = (next: string[]) => {
    const kinds = next.filter(isKind);
    // At least one kind stays checked.
    if (!kinds.length) return;
    setForm((current) => ({ ...current, kinds }));
    // Kinds act at once on the search shown.
    if (query) setAddress(writeQuery({ ...query, kinds }), { replace: true });
  };

  return (
    <Stack gap="md">
      <Title order={2}>Search</Title>
      <form onSubmit={submit} aria-label="Search the library">
        <Stack gap="sm">
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label="Search"
              description="By meaning and by words: ask in your own words or give an exact name"
              value={form.text}
              onChange={(event) => setForm({ ...form, text: event.currentTarget.value })}
              maxLength={1000}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={pages.loading === 'first'}>
              Search
            </Button>
          </Group>
          <Group align="flex-start" gap="lg" wrap="wrap">
            <Checkbox.Group label="Kinds" value={form.kinds} onChange={changeKinds}>
              <Group gap="sm" mt={6}>
                {KINDS.map((kind) => (
                  <Checkbox key={kind.value} value={kind.value} label={kind.label} />
                ))}
              </Group>
            </Checkbox.Group>
            <NumberInput
              label="Minimum score"
              value={form.minScore}
              onChange={(minScore) => setForm({ ...form, minScore })}
              min={0}
              max={1}
              step={0.05}
              decimalScale={2}
              w={140}
            />
            <TextInput
              label="Source starts with"
              placeholder="notes/"
              value={form.prefix}
              onChange={(event) => setForm({ ...form, prefix: event.currentTarget.value })}
              w={200}
            />
          </Group>
        </Stack>
      </form>
      <ErrorNotice error={pages.error} />
      <SearchStatus
        // A search that failed found nothing to count: the error says what happened.
        ran={pages.ran && !pages.error}
        loading={pages.loading === 'first'}
        count={pages.items.length}
        more={pages.hasMore}
      />
      {pages.items.length > 0 && (
        <Stack component="ol" aria-label="Search results" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {pages.items.map((result) => (
            <SearchResultCard key={`${result.kind}:${result.id}`} result={result} terms={terms} />
          ))}
        </Stack>
      )}
      <MoreResults hasMore={pages.hasMore} loading={pages.loading === 'more'} onMore={pages.more} />
    </Stack>
  );
}

/** How many results are shown, said to screen readers as it changes. */
function SearchStatus({ ran, loading, count, more }: { ran: boolean; loading: boolean; count: number; more: boolean }) {
  const message = !ran
    ? ''
    : loading
      ? 'Searching...'
      : count === 0
        ? 'Nothing found.'
        : `${count} result${count === 1 ? '' : 's'}${more ? ', more to come' : ''}.`;
  return (
    <Text role="status" size="sm" c="dimmed">
      {message}
    </Text>
  );
}
