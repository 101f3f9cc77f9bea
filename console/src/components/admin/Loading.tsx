import { Group, Loader, Text } from '@mantine/core';

/** A spinner with words, announced politely to screen readers. */
export function Loading({ what }: { what: string }) {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" />
      <Text size="sm">Loading {what}...</Text>
    </Group>
  );
}
