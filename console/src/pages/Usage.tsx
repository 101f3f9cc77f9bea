import { Title } from '@mantine/core';

export function Usage() {
  return <Title order={2}>Usage</Title>;
}
