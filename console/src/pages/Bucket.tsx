import { Title } from '@mantine/core';

export function Bucket() {
  return <Title order={2}>Bucket</Title>;
}
