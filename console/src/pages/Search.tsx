import { Title } from '@mantine/core';

export function Search() {
  return <Title order={2}>Search</Title>;
}
