import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import type { Document } from '../../../../client/src/index.js';
import { documentPath } from '../../links';
import { formatBytes, formatDate } from './format';
import { MetadataView } from './MetadataView';
import { StatusBadge } from './StatusBadge';

/**
 * The documents of one page; the title links to the document's page (a click
 * anywhere on the row goes there too). The table scrolls sideways on a narrow
 * screen: its container takes the focus, so the keyboard can scroll it too.
 */
export function DocumentTable({ documents }: { documents: Document[] }) {
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={960} type="native" tabIndex={0} role="region" aria-label="Documents table">
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Documents">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Title</Table.Th>
            <Table.Th>Source ref</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Metadata</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {documents.map((doc) => (
            <Table.Tr
              key={doc.id}
              data-document-id={doc.id}
              style={{ cursor: 'pointer' }}
              onClick={(event) => {
                // The title's own link already navigates.
                if (!(event.target as HTMLElement).closest('a')) navigate(documentPath(doc.id));
              }}
            >
              <Table.Td maw={280}>
                <Anchor component={Link} to={documentPath(doc.id)} fw={500} style={{ overflowWrap: 'break-word' }}>
                  {doc.title}
                </Anchor>
              </Table.Td>
              <Table.Td maw={240} style={{ overflowWrap: 'break-word' }}>
                {doc.source_ref ?? (
                  <Text span size="sm" c="dimmed">
                    none
                  </Text>
                )}
              </Table.Td>
              <Table.Td miw={80}>
                <Badge variant="outline" color="gray.8">
                  {doc.kind}
                </Badge>
              </Table.Td>
              <Table.Td maw={260}>
                <StatusBadge status={doc.status} failureReason={doc.failure_reason} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(doc.size_bytes)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(doc.created_at)}</Table.Td>
              <Table.Td maw={260}>
                <MetadataView metadata={doc.metadata} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
