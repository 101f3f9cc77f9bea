import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { DynamoDocumentStore } from '../../../lambdas/adapters/aws/dynamo-document-store.js';
import { DynamoTenantStore } from '../../../lambdas/adapters/aws/dynamo-tenant-store.js';
import { S3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store.js';
import { DOCUMENTS_TABLE, TENANTS_TABLE } from '../../../lambdas/adapters/aws/table-schemas.js';
import { blobStoreContract } from '../../contract/blob-store.contract.js';
import { documentStoreContract } from '../../contract/document-store.contract.js';
import { tenantStoreContract } from '../../contract/tenant-store.contract.js';
import { startDynalite, startS3rver } from './local-aws.js';

/**
 * The same port contract suites the local adapters pass, run against the
 * DynamoDB adapters on dynalite and the S3 adapter on s3rver, both real
 * implementations of those APIs started here.
 */
let dynamo: Awaited<ReturnType<typeof startDynalite>>;
let s3: Awaited<ReturnType<typeof startS3rver>>;

beforeAll(async () => {
  [dynamo, s3] = await Promise.all([startDynalite(), startS3rver()]);
});
afterAll(async () => {
  await Promise.all([dynamo?.close(), s3?.close()]);
});

documentStoreContract('DynamoDB (dynalite)', async () => new DynamoDocumentStore(dynamo.client, await dynamo.createTable(DOCUMENTS_TABLE)));
tenantStoreContract('DynamoDB (dynalite)', async () => new DynamoTenantStore(dynamo.client, await dynamo.createTable(TENANTS_TABLE)));

let buckets = 0;
blobStoreContract('S3 (s3rver)', async () => {
  const bucket = `blobs-${++buckets}`;
  await s3.client.send(new CreateBucketCommand({ Bucket: bucket }));
  return new S3BlobStore(s3.client, bucket);
});
