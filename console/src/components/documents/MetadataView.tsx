import { Code, Group, Text } from '@mantine/core';
import type { Document } from '../../../../client/src/index.js';
import { formatMetadataValue } from './format';

/** A document's metadata as `key: value` chips; nothing to show says so rather than leaving a blank. */
export function MetadataView({ metadata }: { metadata: Document['metadata'] }) {
  const entries = Object.entries(metadata);
  if (!entries.length)
    return (
      <Text size="xs" c="dimmed">
        none
      </Text>
    );
  return (
    <Group gap={4}>
      {entries.map(([key, value]) => (
        <Code key={key}>
          {key}: {formatMetadataValue(value)}
        </Code>
      ))}
    </Group>
  );
}
