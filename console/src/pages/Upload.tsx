import { Title } from '@mantine/core';

export function Upload() {
  return <Title order={2}>Upload</Title>;
}
