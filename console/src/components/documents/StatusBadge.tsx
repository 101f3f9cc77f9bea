import { Badge, Stack, Text } from '@mantine/core';
import type { Document } from '../../../../client/src/index.js';
import { STATUS_COLORS } from './colors';

/** A document's status, and for a failed one the reason it gave (`reject_code: detail`). */
export function StatusBadge({ status, failureReason }: { status: Document['status']; failureReason?: string | null }) {
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={STATUS_COLORS[status]} variant="filled">
        {status}
      </Badge>
      {status === 'failed' && failureReason && (
        <Text size="xs" c="red.9" data-testid="failure-reason">
          {failureReason}
        </Text>
      )}
    </Stack>
  );
}
