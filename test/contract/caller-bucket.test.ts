import { afterAll, beforeAll } from 'vitest';
import { S3BucketConnector } from '../../lambdas/adapters/caller-bucket/connector.js';
import { type CustomerBucket, startCustomerBucket } from '../support/customer-bucket.js';
import { blobStoreContract } from './blob-store.contract.js';

/** The caller-bucket store (the shared S3 connector with keys) passes the blob-store contract against s3rver on loopback. */
let bucket: CustomerBucket;
beforeAll(async () => {
  bucket = await startCustomerBucket(['contract-bucket']);
  bucket.addKey('AKIACONTRACT', 'contract-secret');
});
afterAll(() => bucket.close());

const connector = new S3BucketConnector({ allowPrivateEndpoints: true });
blobStoreContract(
  'caller bucket (S3 connector, keys, s3rver)',
  async () =>
    connector.open({
      tenantId: 'ten_contract',
      provider: 's3',
      bucket: 'contract-bucket',
      region: 'us-east-1',
      endpoint: bucket.endpoint,
      auth: { kind: 'keys', accessKeyId: 'AKIACONTRACT', secretAccessKey: 'contract-secret' },
    }),
  { links: { secret: 'contract-secret' } },
);
