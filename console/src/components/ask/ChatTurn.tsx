import { Badge, Box, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { ErrorNotice } from '../ErrorNotice';
import { ArtifactView } from './ArtifactView';
import { CitedReply } from './CitedReply';
import { citationSources } from './citations';
import { SourceList } from './SourceList';
import type { Turn } from './useChat';

const NO_SOURCES = new Map<number, number>();

/** A question and its answer: the reply with its citations, what it made, its sources; or the error. */
export function ChatTurn({ turn }: { turn: Turn }) {
  const { response } = turn;
  const which = useMemo(() => (response ? citationSources(response.sources) : NO_SOURCES), [response]);
  // No sources: the library does not hold the answer (the service never answers without citing).
  const notHeld = response !== null && response.sources.length === 0;

  return (
    <Stack component="li" gap="xs" data-turn={turn.state}>
      <Paper p="sm" radius="sm" bg="gray.1" ml={{ base: 0, sm: 'xl' }}>
        <Text size="xs" fw={600} c="dimmed">
          You asked
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{turn.question}</Text>
      </Paper>
      <Paper withBorder p="sm" radius="sm" aria-busy={turn.state === 'asking'} data-not-held={notHeld || undefined}>
        <Group gap="xs" mb={4}>
          <Text size="xs" fw={600} c="dimmed">
            The library answered
          </Text>
          {turn.state === 'asking' && <Loader size="xs" aria-label="Writing the answer" />}
          {notHeld && (
            <Badge variant="outline" color="red.9">
              Not in your library
            </Badge>
          )}
        </Group>
        {turn.state === 'failed' ? (
          <ErrorNotice error={turn.error} />
        ) : (
          <CitedReply reply={response?.reply ?? turn.draft} sources={response?.sources ?? []} which={which} />
        )}
        {response && response.artifacts.length > 0 && (
          <Stack gap="sm" mt="sm">
            {response.artifacts.map((artifact) => (
              <ArtifactView key={artifact.id} artifact={artifact} />
            ))}
          </Stack>
        )}
        {response && response.sources.length > 0 && <SourceList sources={response.sources} />}
        {response && (
          <Box mt={6}>
            <Text size="xs" c="dimmed">
              {response.tokens_used.toLocaleString('en')} tokens
            </Text>
          </Box>
        )}
      </Paper>
    </Stack>
  );
}
