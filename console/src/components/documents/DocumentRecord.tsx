import { Code, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Document } from '../../../../client/src/index.js';
import { LabelledValues } from '../LabelledValues';
import { formatBytes, formatDate } from './format';
import { MetadataView } from './MetadataView';
import { StatusBadge } from './StatusBadge';

const none = (
  <Text span size="sm" c="dimmed">
    none
  </Text>
);
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** Every field of the document's record, as the API gave it (sizes and dates also in words). */
export function DocumentRecord({ doc }: { doc: Document }) {
  const rows: [string, ReactNode][] = [
    ['Id', <Code key="id">{doc.id}</Code>],
    ['File id', <Code key="file">{doc.file_id}</Code>],
    ['Title', doc.title],
    ['Filename', doc.filename ?? none],
    ['Content type', doc.content_type],
    ['Source ref', doc.source_ref ?? none],
    ['Kind', doc.kind],
    ['Status', <StatusBadge key="status" status={doc.status} failureReason={doc.failure_reason} />],
    ['Size', `${formatBytes(doc.size_bytes)} (${doc.size_bytes.toLocaleString('en')} bytes)`],
    ['SHA-256', <Code key="sha">{doc.sha256}</Code>],
    ['Created', `${formatDate(doc.created_at)} (${doc.created_at})`],
    ['Storage', doc.storage],
    ['Lines', String(doc.line_count)],
    ['Pages', doc.page_count === null ? none : String(doc.page_count)],
    [
      'Passages',
      doc.passages !== null
        ? `${doc.passages_embedded} of ${doc.passages} embedded`
        : doc.status === 'failed'
          ? none
          : 'not known yet',
    ],
    ['Findable by words', yesNo(doc.findable_by_words)],
    ['Findable by meaning', yesNo(doc.findable_by_meaning)],
    ['Metadata', <MetadataView key="metadata" metadata={doc.metadata} />],
  ];
  return <LabelledValues rows={rows} size="sm" gap={6} labelWidth={150} aria-label="Record" />;
}
