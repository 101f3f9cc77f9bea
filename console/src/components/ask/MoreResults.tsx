import { Button, Group } from '@mantine/core';

/** The next page of a list read by cursor: a button while the API says there is more. */
export function MoreResults({ hasMore, loading, onMore }: { hasMore: boolean; loading: boolean; onMore: () => void }) {
  if (!hasMore) return null;
  return (
    <Group justify="center" mt="md">
      <Button variant="default" onClick={onMore} loading={loading}>
        More results
      </Button>
    </Group>
  );
}
