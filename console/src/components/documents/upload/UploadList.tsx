import { Anchor, Badge, Group, Loader, Progress, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { documentPath } from '../../../links';
import { RECEIPT_COLORS, STATUS_COLORS } from '../colors';
import { formatBytes } from '../format';
import type { UploadEntry } from './uploads';

/** The Detail column: why a file was refused, failed, or its status is unknown; else the receipt's detail. */
function detailOf(entry: UploadEntry): string | null {
  if (entry.status === 'failed') return entry.failureReason;
  if (entry.status === 'unknown') return `status unknown (${entry.statusError ?? 'no reason given'})`;
  return entry.detail;
}

/**
 * One row a file: its receipt, then its document's status as it moves, and
 * why when it was refused or failed. The table scrolls sideways on a narrow
 * screen: its container takes the focus, so the keyboard can scroll it too.
 */
export function UploadList({ entries }: { entries: UploadEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={760} type="native" tabIndex={0} role="region" aria-label="Uploads table">
      <Table verticalSpacing="xs" aria-label="Uploads">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>File</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Receipt</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Detail</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.key} data-stage={entry.stage} data-status={entry.status ?? undefined}>
              <Table.Td miw={160} maw={280} style={{ overflowWrap: 'break-word' }}>
                {entry.id ? (
                  <Anchor component={Link} to={documentPath(entry.id)}>
                    {entry.path}
                  </Anchor>
                ) : (
                  entry.path
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(entry.size)}</Table.Td>
              <Table.Td miw={120}>
                <Group gap={6} wrap="nowrap">
                  <Badge color={RECEIPT_COLORS[entry.stage]}>{entry.stage}</Badge>
                  {entry.stage === 'sending' && <Loader size="xs" aria-hidden="true" />}
                </Group>
              </Table.Td>
              <Table.Td miw={140}>
                {entry.status && (
                  <Stack gap={4}>
                    <Badge color={STATUS_COLORS[entry.status]}>{entry.status}</Badge>
                    {entry.status === 'processing' && <Embedding entry={entry} />}
                  </Stack>
                )}
              </Table.Td>
              <Table.Td maw={360} style={{ overflowWrap: 'break-word' }}>
                <Text
                  size="xs"
                  c={
                    entry.stage === 'rejected' || entry.status === 'failed' || entry.status === 'unknown'
                      ? 'red.9'
                      : undefined
                  }
                >
                  {detailOf(entry)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** While processing: how many of its passages are findable by meaning yet (unknown until its text is read). */
function Embedding({ entry }: { entry: UploadEntry }) {
  if (!entry.passages)
    return (
      <Text size="xs" c="dimmed">
        reading the file
      </Text>
    );
  const value = Math.round((100 * entry.embedded) / entry.passages);
  return (
    <Progress
      value={value}
      size="sm"
      aria-label={`${entry.path}: ${entry.embedded} of ${entry.passages} passages embedded`}
    />
  );
}
