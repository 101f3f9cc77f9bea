import { Button, Group, Text } from '@mantine/core';

/** Previous and next page buttons for a cursor-paged list, with the page's number. */
export function Pager({
  label,
  page,
  hasPrevious,
  hasNext,
  busy,
  onPrevious,
  onNext,
}: {
  /** The group's name; not containing "pages", which would also match the console's "Pages" navigation. */
  label: string;
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <Group gap="xs" role="group" aria-label={label}>
      <Button variant="default" size="xs" onClick={onPrevious} disabled={!hasPrevious || busy}>
        Previous page
      </Button>
      <Text size="sm">Page {page}</Text>
      <Button variant="default" size="xs" onClick={onNext} disabled={!hasNext || busy}>
        Next page
      </Button>
    </Group>
  );
}
