import { Title } from '@mantine/core';

export function DocumentPage() {
  return <Title order={2}>DocumentPage</Title>;
}
