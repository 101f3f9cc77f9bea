import { Anchor, Badge, Card, Group, Text } from '@mantine/core';
import type { SearchResult } from '../../../../client/src/index.js';
import { documentHref } from '../../links';
import { Marked, termRanges } from './highlight';

const KIND_LABEL: Record<SearchResult['kind'], string> = {
  file_excerpt: 'Document',
  image: 'Image',
  chat: 'Chat',
  creation: 'Creation',
};

/** One search result: its document (a link at the snippet's lines), kind, score, how it was found, and the snippet with the query's words marked. */
export function SearchResultCard({ result, terms }: { result: SearchResult; terms: readonly string[] }) {
  // Only documents have a page; a chat message or a creation is shown here whole.
  const isDocument = result.kind === 'file_excerpt' || result.kind === 'image';
  // The service says which lines the snippet's passage covers: the link marks them all.
  const line = result.line_start;
  const name = result.title || result.source_ref || result.id;
  const details = [
    result.source_ref && result.source_ref !== name ? result.source_ref : null,
    line ? `from line ${line}` : null,
    result.content_date.slice(0, 10),
  ].filter(Boolean);

  return (
    <Card component="li" withBorder padding="sm" radius="sm" data-result-id={result.id}>
      <Group justify="space-between" align="flex-start" gap="xs">
        {isDocument ? (
          <Anchor href={documentHref(result.id, line, result.line_end)} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Anchor>
        ) : (
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
        )}
        <Group gap={6}>
          <Badge variant="outline" color="gray.8">
            {KIND_LABEL[result.kind]}
          </Badge>
          <Badge variant="outline" color="indigo.9" data-score={result.score}>
            Score {result.score.toFixed(2)}
          </Badge>
          {result.from_keyword ? (
            <Badge variant="filled" color="teal.9">
              Found by keyword
            </Badge>
          ) : (
            <Badge variant="outline" color="grape.9">
              Found by meaning
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="xs" c="dimmed" mt={2}>
        {details.join(' · ')}
      </Text>
      <Text size="sm" mt={6} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        <Marked text={result.snippet} ranges={termRanges(result.snippet, terms)} />
      </Text>
    </Card>
  );
}
