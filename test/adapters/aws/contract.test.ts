import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBucketRegistrations } from '../../../lambdas/adapters/aws/dynamo-bucket-registrations.js';
import { DynamoConversationStore } from '../../../lambdas/adapters/aws/dynamo-conversation-store.js';
import { DynamoDocumentStore } from '../../../lambdas/adapters/aws/dynamo-document-store.js';
import { DynamoPendingBucketDeletes } from '../../../lambdas/adapters/aws/dynamo-pending-bucket-deletes.js';
import { DynamoTenantStore } from '../../../lambdas/adapters/aws/dynamo-tenant-store.js';
import { DynamoUsageLedger } from '../../../lambdas/adapters/aws/dynamo-usage-ledger.js';
import { S3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store.js';
import {
  BUCKETS_TABLE,
  DOCUMENTS_TABLE,
  TENANTS_TABLE,
  USAGE_TABLE,
} from '../../../lambdas/adapters/aws/table-schemas.js';
import { S3BucketConnector } from '../../../lambdas/adapters/caller-bucket/connector.js';
import { dedicatedRoleCaller, StsRoleCredentials } from '../../../lambdas/adapters/caller-bucket/role-credentials.js';
import { blobStoreContract } from '../../contract/blob-store.contract.js';
import { bucketRegistrationsContract } from '../../contract/bucket-registrations.contract.js';
import { conversationStoreContract } from '../../contract/conversation-store.contract.js';
import { documentStoreContract } from '../../contract/document-store.contract.js';
import { documentRecord, timestamp } from '../../contract/fixtures.js';
import { pendingBucketDeletesContract } from '../../contract/pending-bucket-deletes.contract.js';
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

documentStoreContract(
  'DynamoDB (dynalite)',
  async () => new DynamoDocumentStore(dynamo.client, await dynamo.createTable(DOCUMENTS_TABLE)),
);
// Conversations live in the documents table, in their library's partition.
conversationStoreContract('DynamoDB (dynalite)', async () => {
  const table = await dynamo.createTable(DOCUMENTS_TABLE);
  return {
    conversations: new DynamoConversationStore(dynamo.client, table),
    documents: new DynamoDocumentStore(dynamo.client, table),
  };
});
tenantStoreContract(
  'DynamoDB (dynalite)',
  async () => new DynamoTenantStore(dynamo.client, await dynamo.createTable(TENANTS_TABLE)),
);
bucketRegistrationsContract(
  'DynamoDB (dynalite)',
  async () => new DynamoBucketRegistrations(dynamo.client, await dynamo.createTable(BUCKETS_TABLE)),
);
pendingBucketDeletesContract(
  'DynamoDB (dynalite)',
  async () => new DynamoPendingBucketDeletes(dynamo.client, await dynamo.createTable(BUCKETS_TABLE)),
);

let buckets = 0;
blobStoreContract(
  'S3 (s3rver)',
  async () => {
    const bucket = `blobs-${++buckets}`;
    await s3.client.send(new CreateBucketCommand({ Bucket: bucket }));
    return new S3BlobStore(s3.client, bucket);
  },
  { links: { secret: 'S3RVER' } },
);

/**
 * A caller's bucket (s3rver on loopback, allowed for the test only), reached
 * as the AWS stack reaches it: by keys, and by role through the dedicated
 * role (STS through aws-sdk-client-mock, its session then used for real).
 */
const sts = mockClient(STSClient);
afterAll(() => sts.restore());
const s3rverEndpoint = async () => s3.client.config.endpoint!().then((e) => `${e.protocol}//${e.hostname}:${e.port}`);
async function callerBucket(auth: 'keys' | 'role') {
  const bucket = `caller-${auth}-${++buckets}`;
  await s3.client.send(new CreateBucketCommand({ Bucket: bucket }));
  const session = {
    AccessKeyId: 'S3RVER',
    SecretAccessKey: 'S3RVER',
    SessionToken: 'token',
    Expiration: new Date(Date.now() + 3600_000),
  };
  sts.on(AssumeRoleCommand).resolves({ Credentials: session });
  const caller = dedicatedRoleCaller({
    region: 'us-east-1',
    roleArn: 'arn:aws:iam::111111111111:role/dedicated',
    sessionName: 'contract',
    functionCredentials: async () => ({ accessKeyId: 'ASIAFUNCTION', secretAccessKey: 'x' }),
  });
  const connector = new S3BucketConnector({
    allowPrivateEndpoints: true,
    roleCredentials: new StsRoleCredentials({ region: 'us-east-1', caller }),
  });
  return connector.open({
    tenantId: 'ten_contract',
    provider: 's3',
    bucket,
    region: 'us-east-1',
    endpoint: await s3rverEndpoint(),
    auth:
      auth === 'keys'
        ? { kind: 'keys', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
        : { kind: 'role', roleArn: 'arn:aws:iam::222222222222:role/customer', externalId: 'lib-x' },
  });
}
blobStoreContract("caller's bucket by keys (S3BucketConnector, s3rver)", () => callerBucket('keys'), {
  links: { secret: 'S3RVER' },
});
// Links presigned with the role's session (its secret is the one STS handed out).
blobStoreContract("caller's bucket by role (S3BucketConnector + STS, s3rver)", () => callerBucket('role'), {
  links: { secret: 'S3RVER' },
});

describe('DynamoDocumentStore: extraction, progress and settling (the ingest worker)', () => {
  const processing = (ref: { tenantId: string; endUserId: string | null }) =>
    documentRecord(ref, {
      status: 'processing',
      lineCount: 0,
      pageCount: null,
      kind: 'file',
      contentType: 'application/octet-stream',
      passageCount: null,
      passagesEmbedded: 0,
      failureReason: null,
    });

  it('records what extraction found, counts embedded passages atomically, and settles ready out of the processing index', async () => {
    const store = new DynamoDocumentStore(dynamo.client, await dynamo.createTable(DOCUMENTS_TABLE));
    const ref = { tenantId: 'ten_ingest', endUserId: null };
    await store.touchLibrary(ref, timestamp());
    const doc = processing(ref);
    await store.claim(doc);
    expect(await store.get(ref, doc.id)).toEqual(doc);
    expect((await store.listStaleProcessing('9999')).map((d) => d.id)).toContain(doc.id);

    await store.recordExtraction(ref, doc.id, {
      kind: 'image',
      contentType: 'image/png',
      lineCount: 7,
      pageCount: 1,
      passageCount: 20,
    });
    expect(await store.get(ref, doc.id)).toMatchObject({
      status: 'processing',
      kind: 'image',
      contentType: 'image/png',
      lineCount: 7,
      pageCount: 1,
      passageCount: 20,
      passagesEmbedded: 0,
    });
    // Concurrent steps: no increment is lost.
    await Promise.all(Array.from({ length: 8 }, () => store.recordEmbedded(ref, doc.id, 2)));
    expect((await store.get(ref, doc.id))!.passagesEmbedded).toBe(16);
    // A step repeated by a redelivered job never counts past the passages.
    await store.recordEmbedded(ref, doc.id, 8);
    expect((await store.get(ref, doc.id))!.passagesEmbedded).toBe(20);

    await store.settle(ref, doc.id, { status: 'ready' });
    expect(await store.get(ref, doc.id)).toMatchObject({
      status: 'ready',
      passageCount: 20,
      passagesEmbedded: 20,
      failureReason: null,
    });
    expect((await store.listStaleProcessing('9999')).map((d) => d.id)).not.toContain(doc.id);
    // Only a processing document is settled: a late failure does not undo ready.
    await store.settle(ref, doc.id, { status: 'failed', reason: 'backend_unavailable: late' });
    expect(await store.get(ref, doc.id)).toMatchObject({ status: 'ready', failureReason: null });
  });

  it('settles failed with the reason, and does nothing to a document that is gone or in another library', async () => {
    const store = new DynamoDocumentStore(dynamo.client, await dynamo.createTable(DOCUMENTS_TABLE));
    const ref = { tenantId: 'ten_fail', endUserId: 'u1' };
    const other = { tenantId: 'ten_fail', endUserId: 'u2' };
    await store.touchLibrary(ref, timestamp());
    const doc = processing(ref);
    await store.claim(doc);
    await store.settle(other, doc.id, { status: 'failed', reason: 'x' });
    await store.recordEmbedded(other, doc.id, 3);
    await store.recordExtraction(other, doc.id, {
      kind: 'file',
      contentType: 'text/plain',
      lineCount: 1,
      pageCount: null,
      passageCount: 1,
    });
    expect(await store.get(ref, doc.id)).toEqual(doc);

    await store.settle(ref, doc.id, { status: 'failed', reason: 'extraction_failed: the stored file is missing' });
    expect(await store.get(ref, doc.id)).toMatchObject({
      status: 'failed',
      failureReason: 'extraction_failed: the stored file is missing',
      passageCount: null,
    });
    expect((await store.listStaleProcessing('9999')).map((d) => d.id)).not.toContain(doc.id);

    await store.delete(ref, doc.id);
    await expect(store.settle(ref, doc.id, { status: 'ready' })).resolves.toBeUndefined();
    await expect(store.recordEmbedded(ref, doc.id, 1)).resolves.toBeUndefined();
    await expect(
      store.recordExtraction(ref, doc.id, {
        kind: 'file',
        contentType: 'text/plain',
        lineCount: 1,
        pageCount: null,
        passageCount: 1,
      }),
    ).resolves.toBeUndefined();
    expect(await store.get(ref, doc.id)).toBeNull();
  });

  it("reads a library made before generations as generation '' without writing (search and grep may only read); a writer gives it one", async () => {
    const table = await dynamo.createTable(DOCUMENTS_TABLE);
    const store = new DynamoDocumentStore(dynamo.client, table);
    const ref = { tenantId: 'ten_pre_generations', endUserId: 'old' };
    await store.touchLibrary(ref, timestamp());
    await dynamo.client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `LIBS#${ref.tenantId}`, sk: `U#${ref.endUserId}` },
        UpdateExpression: 'REMOVE generation',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    expect(await store.libraryGeneration(ref, { readOnly: true })).toBe('');
    expect(await store.libraryGeneration(ref, { readOnly: true })).toBe(''); // nothing was written
    const given = await store.libraryGeneration(ref);
    expect(given).toMatch(/^[0-9a-f-]{36}$/);
    expect(await store.libraryGeneration(ref, { readOnly: true })).toBe(given);
  });

  it('reads a record written before passage counts were kept: ready reads as complete, processing as not yet extracted', async () => {
    const table = await dynamo.createTable(DOCUMENTS_TABLE);
    const store = new DynamoDocumentStore(dynamo.client, table);
    const ref = { tenantId: 'ten_old', endUserId: null };
    await store.touchLibrary(ref, timestamp());
    const ready = documentRecord(ref, { status: 'ready' });
    const queued = documentRecord(ref, { status: 'processing' });
    for (const doc of [ready, queued]) {
      await store.claim(doc);
      await dynamo.client.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: `LIB#${ref.tenantId}#S`, sk: `SHA#${doc.sha256}` },
          UpdateExpression: 'REMOVE passageCount, passagesEmbedded, failureReason',
        }),
      );
    }
    expect(await store.get(ref, ready.id)).toMatchObject({
      status: 'ready',
      passageCount: 0,
      passagesEmbedded: 0,
      failureReason: null,
    });
    expect(await store.get(ref, queued.id)).toMatchObject({
      status: 'processing',
      passageCount: null,
      passagesEmbedded: 0,
      failureReason: null,
    });
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
