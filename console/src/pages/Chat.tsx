import { Title } from '@mantine/core';

export function Chat() {
  return <Title order={2}>Chat</Title>;
}
