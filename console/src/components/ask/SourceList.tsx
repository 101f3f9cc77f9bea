import { Anchor, Box, Code, Group, Stack, Text } from '@mantine/core';
import type { ChatResponse } from '../../../../client/src/index.js';
import { sourceDescription, sourceHref, sourceName } from './CitedReply';
import { citedSpan, spanLabel } from './lines';

type Source = ChatResponse['sources'][number];

/** The sources of a reply, numbered as its citations: each a link to the cited lines, and those lines. */
export function SourceList({ sources }: { sources: readonly Source[] }) {
  return (
    <Box component="section" aria-label="Sources" mt="sm">
      <Text size="sm" fw={600} mb={4}>
        Sources
      </Text>
      <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {sources.map((source, i) => {
          const span = citedSpan(source.snippet);
          return (
            <Box component="li" key={source.file_id}>
              <Group gap={6} wrap="nowrap" align="baseline">
                <Text size="sm" fw={600} aria-hidden>
                  [{i + 1}]
                </Text>
                <Anchor
                  href={sourceHref(source)}
                  size="sm"
                  aria-label={`Source ${i + 1}: ${sourceDescription(source)}`}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {sourceName(source)}
                  {span ? `, ${spanLabel(span)}` : ''}
                </Anchor>
              </Group>
              <Code block mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {source.snippet}
              </Code>
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
