import { Code, Text } from '@mantine/core';
import type { Erasure } from '../../../../client/src/index.js';
import { Done } from './Done';
import { plural } from './format';

/** What the erasure answered: counts of what went, and any bucket objects still to be deleted. */
export function ErasureSummary({ erasure, onClose }: { erasure: Erasure; onClose: () => void }) {
  return (
    <Done title="End user erased" onClose={onClose}>
      <Text size="sm">
        <Code>{erasure.id}</Code>: {plural(erasure.documents_deleted, 'document')},{' '}
        {plural(erasure.blobs_deleted, 'file')} and {plural(erasure.messages_deleted, 'message')} deleted.
      </Text>
      {erasure.blobs_pending > 0 && (
        <Text size="sm" mt={4}>
          {plural(erasure.blobs_pending, 'file')} in your bucket could not be deleted yet; the service keeps trying.
        </Text>
      )}
    </Done>
  );
}
