import { Box, Button, Group, LoadingOverlay, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { DocumentFilters } from '../components/documents/DocumentFilters';
import { DocumentTable } from '../components/documents/DocumentTable';
import { type ListQuery, paramsFromQuery, queryFromParams } from '../components/documents/filters';
import { useDocumentPages } from '../components/documents/useDocumentPages';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/**
 * The library's documents, newest first: filters, one page at a time, each
 * row opening its document. After a switch to another library the list is
 * empty until that library's documents have come (never the last one's rows
 * under the new caption).
 */
export function Documents() {
  const { library, scope, endUser } = useConsole();
  const [params, setParams] = useSearchParams();
  const query = queryFromParams(params);
  const list = useDocumentPages(library, query, scope);
  const setQuery = (next: ListQuery) => setParams(paramsFromQuery(next));
  const documents = list.page?.documents ?? [];

  return (
    <Stack gap="md">
      <Title order={2}>Documents</Title>
      <Text size="sm" c="dimmed">
        {endUser ? `The library of end user ${endUser}.` : 'The shared library.'}
      </Text>
      <DocumentFilters value={query} onChange={setQuery} />
      <ErrorNotice error={list.error} />
      <Box pos="relative" mih={80} aria-busy={list.loading}>
        <LoadingOverlay visible={list.loading} loaderProps={{ 'aria-label': 'Loading documents' }} />
        {documents.length > 0 ? (
          <DocumentTable documents={documents} />
        ) : (
          !list.loading &&
          !list.error && (
            <Text role="status" c="dimmed">
              No documents{list.pageNumber > 1 ? ' on this page' : ' match'}.
            </Text>
          )
        )}
      </Box>
      <Group gap="xs" justify="space-between">
        <Text size="sm" role="status" aria-live="polite">
          Page {list.pageNumber}
          {list.loading ? '' : `: ${documents.length} document${documents.length === 1 ? '' : 's'}`}
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={list.previous} disabled={!list.hasPrevious || list.loading}>
            Previous page
          </Button>
          <Button variant="default" onClick={list.next} disabled={!list.hasNext}>
            Next page
          </Button>
          <Button variant="subtle" onClick={list.reload}>
            Refresh
          </Button>
        </Group>
      </Group>
      {list.refreshStopped && (
        <Text size="sm" c="dimmed" role="status">
          Some documents are still processing; the list is no longer read again on its own. Refresh reads it again.
        </Text>
      )}
    </Stack>
  );
}
