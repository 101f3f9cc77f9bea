import { Title } from '@mantine/core';

export function EndUsers() {
  return <Title order={2}>End users</Title>;
}
