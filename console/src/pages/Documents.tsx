import { Title } from '@mantine/core';

export function Documents() {
  return <Title order={2}>Documents</Title>;
}
