import { Badge, Code, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { BucketStatus } from '../../../../client/src/index.js';
import { LabelledValues } from '../LabelledValues';
import { formatMoment, plural } from './format';

/** The registered bucket (GET /v1/bucket) and its health, or that files stay in the service's storage. */
export function BucketState({ status }: { status: BucketStatus | null }) {
  if (!status) {
    return (
      <Text data-bucket-state="none">No bucket is registered: captured files are kept in the service's storage.</Text>
    );
  }
  const rows: [string, ReactNode][] = [
    ['Bucket', <Code key="bucket">{status.bucket}</Code>],
    ['Provider', status.provider === 'r2' ? 'Cloudflare R2' : 'S3'],
    ['Region', status.region],
    ['Endpoint', status.endpoint ?? 'AWS S3'],
    ['Prefix', status.prefix ? <Code key="prefix">{status.prefix}</Code> : 'the bucket root'],
    ['Access', status.auth === 'role' ? `role ${status.role_arn ?? ''}` : 'access keys'],
    ['Access proved', formatMoment(status.verified_at)],
    [
      'Health',
      // Filled and dark: Mantine's light teal badge is below AA contrast.
      <Badge key="health" color={status.state === 'ok' ? 'teal.9' : 'red.9'} variant="filled">
        {status.state === 'ok' ? 'ok' : 'failing'}
      </Badge>,
    ],
  ];
  if (status.last_error) rows.push(['Last error', `${status.last_error} (${formatMoment(status.last_error_at)})`]);
  if (status.pending_deletes > 0)
    rows.push(['Deletes pending', `${plural(status.pending_deletes, 'object')}, retried in the background`]);
  return <LabelledValues rows={rows} data-bucket-state={status.state} withDivider />;
}
