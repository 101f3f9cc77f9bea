import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDocumentStore } from '../../../lambdas/adapters/aws/dynamo-document-store.js';
import { DynamoTenantStore } from '../../../lambdas/adapters/aws/dynamo-tenant-store.js';
import { S3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store.js';
import { DynamoUsageLedger } from '../../../lambdas/adapters/aws/dynamo-usage-ledger.js';
import { DOCUMENTS_TABLE, TENANTS_TABLE, USAGE_TABLE } from '../../../lambdas/adapters/aws/table-schemas.js';
import { blobStoreContract } from '../../contract/blob-store.contract.js';
import { documentStoreContract } from '../../contract/document-store.contract.js';
import { tenantStoreContract } from '../../contract/tenant-store.contract.js';
import { documentRecord, timestamp } from '../../contract/fixtures.js';
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

describe('DynamoDocumentStore.finishIngest (the queued ingest)', () => {
  it('records what extraction found and leaves the processing index', async () => {
    const store = new DynamoDocumentStore(dynamo.client, await dynamo.createTable(DOCUMENTS_TABLE));
    const ref = { tenantId: 'ten_ingest', endUserId: null };
    await store.touchLibrary(ref, timestamp());
    const doc = documentRecord(ref, { status: 'processing', lineCount: 0, pageCount: null, kind: 'file', contentType: 'application/octet-stream' });
    await store.claim(doc);
    expect((await store.listStaleProcessing('9999')).map((d) => d.id)).toContain(doc.id);
    await store.finishIngest(ref, doc.id, { status: 'ready', kind: 'image', contentType: 'image/png', lineCount: 7, pageCount: 1 });
    expect(await store.get(ref, doc.id)).toMatchObject({ status: 'ready', kind: 'image', contentType: 'image/png', lineCount: 7, pageCount: 1 });
    expect((await store.listStaleProcessing('9999')).map((d) => d.id)).not.toContain(doc.id);
  });
});

describe('DynamoUsageLedger (dynalite)', () => {
  it('adds concurrent increments atomically per tenant and day, and lists days oldest first within the range', async () => {
    const ledger = new DynamoUsageLedger(dynamo.client, await dynamo.createTable(USAGE_TABLE));
    const one = { tokensUsed: 10, chatCalls: 1, ocrPages: 2, captures: 1 };
    await Promise.all(Array.from({ length: 8 }, () => ledger.add('ten_a', '2026-11-02', one)));
    await ledger.add('ten_a', '2026-11-01', { tokensUsed: 5, chatCalls: 0, ocrPages: 0, captures: 1 });
    await ledger.add('ten_a', '2026-12-01', one);
    await ledger.add('ten_b', '2026-11-02', one);
    expect(await ledger.days('ten_a', '2026-11-01', '2026-11-30')).toEqual([
      { date: '2026-11-01', tokensUsed: 5, chatCalls: 0, ocrPages: 0, captures: 1 },
      { date: '2026-11-02', tokensUsed: 80, chatCalls: 8, ocrPages: 16, captures: 8 },
    ]);
    expect(await ledger.days('ten_c', '2026-01-01', '2026-12-31')).toEqual([]);
  });
});
