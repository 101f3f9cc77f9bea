import { Title } from '@mantine/core';

export function Grep() {
  return <Title order={2}>Grep</Title>;
}
