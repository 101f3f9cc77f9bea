import { Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { GrepResult } from '../../../client/src/index.js';
import { GrepRow } from '../components/ask/GrepRow';
import { MoreResults } from '../components/ask/MoreResults';
import { usePages } from '../components/ask/usePages';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/** What a grep is asked with; it lives in the page's address (`#/grep?pattern=...`), so Back returns to it. */
interface Query {
  pattern: string;
  caseSensitive: boolean;
}

/** The query in the address (the pattern as typed: spaces count), or null when there is none. */
function readQuery(address: URLSearchParams): Query | null {
  const pattern = address.get('pattern');
  return pattern ? { pattern, caseSensitive: address.get('case_sensitive') === 'true' } : null;
}

const writeQuery = (query: Query): Record<string, string> => ({
  pattern: query.pattern,
  ...(query.caseSensitive ? { case_sensitive: 'true' } : {}),
});

/** A grep page scans within a budget and may come back empty with more to come: walk past a few such pages. */
const EMPTY_PAGES_TO_SKIP = 5;

/** Every line holding an exact string, newest document first, page by page through the cursor. */
export function Grep() {
  const { library, scope } = useConsole();
  const [address, setAddress] = useSearchParams();
  const addressKey = address.toString();
  const query = useMemo(() => readQuery(new URLSearchParams(addressKey)), [addressKey]);
  const [pattern, setPattern] = useState(query?.pattern ?? '');
  const [caseSensitive, setCaseSensitive] = useState(query?.caseSensitive ?? false);
  const pages = usePages<GrepResult>({ skipEmpty: EMPTY_PAGES_TO_SKIP });
  const { start } = pages;

  // Back and Forward change the address: the form shows the query it holds.
  useEffect(() => {
    setPattern(query?.pattern ?? '');
    setCaseSensitive(query?.caseSensitive ?? false);
  }, [query]);

  const grep = useCallback(() => {
    if (query)
      start((signal) =>
        library.grep({ pattern: query.pattern, case_sensitive: query.caseSensitive, ...scope }, { signal }),
      );
  }, [query, scope, library, start]);

  // A new pattern, the other case, or another end user's library: grep again.
  useEffect(() => grep(), [grep]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pattern) return;
    const next = writeQuery({ pattern, caseSensitive });
    // The same query again is run again (the library may have changed since).
    if (new URLSearchParams(next).toString() === addressKey) grep();
    else setAddress(next);
  };

  const toggleCase = (checked: boolean) => {
    setCaseSensitive(checked);
    // The choice acts at once on the lines shown.
    if (query) setAddress(writeQuery({ ...query, caseSensitive: checked }), { replace: true });
  };

  const count = pages.items.length;
  // A grep that failed holds no lines to count: the error says what happened.
  const status =
    !pages.ran || pages.error
      ? ''
      : pages.loading === 'first'
        ? 'Searching...'
        : count === 0 && !pages.hasMore
          ? 'No line holds it.'
          : `${count} matching line${count === 1 ? '' : 's'}${pages.hasMore ? ', more to come' : ''}.`;

  return (
    <Stack gap="md">
      <Title order={2}>Grep</Title>
      <form onSubmit={submit} aria-label="Grep the library">
        <Stack gap="sm">
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label="Pattern"
              description="Matched literally, every occurrence (no regular expressions)"
              value={pattern}
              onChange={(event) => setPattern(event.currentTarget.value)}
              maxLength={512}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={pages.loading === 'first'}>
              Grep
            </Button>
          </Group>
          <Checkbox
            label="Case sensitive"
            checked={caseSensitive}
            onChange={(event) => toggleCase(event.currentTarget.checked)}
          />
        </Stack>
      </form>
      <ErrorNotice error={pages.error} />
      <Text role="status" size="sm" c="dimmed">
        {status}
      </Text>
      {count > 0 && query && (
        <Stack component="ol" aria-label="Matching lines" gap={0} p={0} m={0} style={{ listStyle: 'none' }}>
          {pages.items.map((hit) => (
            <GrepRow
              key={`${hit.file_id}:${hit.line}`}
              hit={hit}
              pattern={query.pattern}
              caseSensitive={query.caseSensitive}
            />
          ))}
        </Stack>
      )}
      <MoreResults hasMore={pages.hasMore} loading={pages.loading === 'more'} onMore={pages.more} />
    </Stack>
  );
}
