import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoTenantStore } from '../../../lambdas/adapters/aws/dynamo-tenant-store.js';
import { callAws, retryAfterSeconds } from '../../../lambdas/adapters/aws/errors.js';
import {
  parseIngestMessage,
  resolveIngestMessage,
  SqsIngestQueue,
} from '../../../lambdas/adapters/aws/sqs-ingest-queue.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';
import { hashKey, KeyService } from '../../../lambdas/core/keys.js';
import type { LibraryRef } from '../../../lambdas/core/model.js';
import { createHandler as authorizer } from '../../../lambdas/endpoints/authorizer/handler.js';
import {
  BUCKET_ENV,
  ConfigError,
  ENV,
  readAwsConfig,
  readBucketConfig,
  readWholeNumber,
} from '../../../lambdas/wiring/aws/config.js';

const sqs = mockClient(SQSClient);
const dynamo = mockClient(DynamoDBDocumentClient);

const VALID_ENV = {
  AWS_REGION: 'eu-west-1',
  LIBRARY_VERSION: '1.0.0',
  LIBRARY_TENANTS_TABLE: 't',
  LIBRARY_DOCUMENTS_TABLE: 'd',
  LIBRARY_USAGE_TABLE: 'u',
  LIBRARY_BLOB_BUCKET: 'b',
  LIBRARY_SEARCH_ENDPOINT: 'https://search.example.com',
  LIBRARY_SEARCH_INDEX_PREFIX: 'library',
  LIBRARY_EMBEDDING_MODEL_ID: 'amazon.titan-embed-text-v2:0',
  LIBRARY_EMBEDDING_DIMENSIONS: '1024',
  LIBRARY_CHAT_MODEL_ID: 'm',
  LIBRARY_INGEST_QUEUE_URL: 'https://sqs/q',
  LIBRARY_INLINE_MAX_BYTES: '1048576',
};

describe('AWS composition: config, queue, authorizer, errors', () => {
  beforeEach(() => {
    sqs.reset();
    dynamo.reset();
  });

  it('reads the config once, typed, and names every missing or malformed variable', () => {
    expect(readAwsConfig(VALID_ENV)).toMatchObject({
      embedding: { dimensions: 1024 },
      inlineMaxBytes: 1048576,
      search: { endpoint: 'https://search.example.com' },
    });
    expect(() => readAwsConfig({ ...VALID_ENV, LIBRARY_BLOB_BUCKET: '', LIBRARY_USAGE_TABLE: undefined })).toThrow(
      'missing environment variables: LIBRARY_USAGE_TABLE, LIBRARY_BLOB_BUCKET',
    );
    expect(() => readAwsConfig({ ...VALID_ENV, LIBRARY_EMBEDDING_DIMENSIONS: '768' })).toThrow(
      /LIBRARY_EMBEDDING_DIMENSIONS/,
    );
    expect(() => readAwsConfig({ ...VALID_ENV, LIBRARY_SEARCH_ENDPOINT: 'http://search' })).toThrow(/https/);
  });

  it('reads the caller-bucket variables of the functions that have them, naming a missing or malformed one', () => {
    const env = {
      [BUCKET_ENV.table]: 'Library-Data-BucketsTable-1',
      [BUCKET_ENV.accessRoleArn]: 'arn:aws:iam::123456789012:role/Library-Api-CallerBucketAccessRole-X',
      [BUCKET_ENV.secretsKeyArn]: 'arn:aws:kms:eu-west-1:123456789012:key/0f0f0f0f-1111-2222-3333-444444444444',
    };
    expect(readBucketConfig(env)).toEqual({
      table: env[BUCKET_ENV.table],
      accessRoleArn: env[BUCKET_ENV.accessRoleArn],
      secretsKeyArn: env[BUCKET_ENV.secretsKeyArn],
    });
    expect(() => readBucketConfig({ ...env, [BUCKET_ENV.table]: '' })).toThrow(
      `missing environment variables: ${BUCKET_ENV.table}`,
    );
    expect(() => readBucketConfig({ ...env, [BUCKET_ENV.accessRoleArn]: 'arn:aws:iam::123456789012:root' })).toThrow(
      ConfigError,
    );
    expect(() => readBucketConfig({ ...env, [BUCKET_ENV.secretsKeyArn]: 'alias/library' })).toThrow(/KMS key ARN/);
  });

  it('enqueues a job as one SQS message naming the library by reference, and a throttled queue is backend_unavailable', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const written: Array<[LibraryRef, string]> = [];
    const references = {
      libraryReference: async (ref: LibraryRef, generation: string) => {
        written.push([ref, generation]);
        return generation;
      },
      resolveLibraryReference: async () => null,
      libraryGeneration: async () => 'gen-live',
    };
    let now = 0;
    const queue = new SqsIngestQueue(new SQSClient({ region: 'eu-west-1' }), 'https://sqs/q', references, () => now);
    const job = { tenantId: 'ten_1', endUserId: 'alice@example.com', documentId: 'file_1', generation: 'gen-1' };
    // Each Lambda embeds on its own: a small single capture never waits behind the queue's work.
    expect(queue.isIdle()).toBe(true);
    expect('settled' in queue).toBe(false);
    await queue.enqueue(job);
    const body = sqs.commandCalls(SendMessageCommand)[0]!.args[0].input;
    expect(body).toEqual({
      QueueUrl: 'https://sqs/q',
      MessageBody: JSON.stringify({ v: 2, tenantId: 'ten_1', documentId: 'file_1', library: 'gen-1' }),
    });
    expect(body.MessageBody).not.toContain('alice');
    expect(written).toEqual([[{ tenantId: 'ten_1', endUserId: 'alice@example.com' }, 'gen-1']]);
    // The same generation again within the hour: the reference is not written again; after it, it is (its time to live starts anew).
    await queue.enqueue({ ...job, documentId: 'file_2' });
    expect(written).toHaveLength(1);
    now = 3_600_000;
    await queue.enqueue({ ...job, documentId: 'file_3' });
    expect(written).toHaveLength(2);
    // A job that came without its generation names the live one; the shared library is null (it names nobody).
    await queue.enqueue({ tenantId: 'ten_1', endUserId: 'bob', documentId: 'file_4' });
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[3]!.args[0].input.MessageBody!)).toEqual({
      v: 2,
      tenantId: 'ten_1',
      documentId: 'file_4',
      library: 'gen-live',
    });
    await queue.enqueue({ tenantId: 'ten_1', endUserId: null, documentId: 'file_5', generation: 'gen-s' });
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[4]!.args[0].input.MessageBody!)).toEqual({
      v: 2,
      tenantId: 'ten_1',
      documentId: 'file_5',
      library: null,
    });
    expect(written.map(([r]) => r.endUserId)).toEqual(['alice@example.com', 'alice@example.com', 'bob']);
    sqs
      .on(SendMessageCommand)
      .rejects(Object.assign(new Error('throttled'), { name: 'RequestThrottled', $metadata: { httpStatusCode: 400 } }));
    await expect(queue.enqueue(job)).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('reads both job forms back, and resolves a reference to its library or to nothing', async () => {
    expect(parseIngestMessage(JSON.stringify({ v: 2, tenantId: 't', documentId: 'file_1', library: 'gen-1' }))).toEqual(
      { v: 2, tenantId: 't', documentId: 'file_1', library: 'gen-1' },
    );
    expect(parseIngestMessage(JSON.stringify({ v: 2, tenantId: 't', documentId: 'file_1', library: null }))).toEqual({
      v: 2,
      tenantId: 't',
      documentId: 'file_1',
      library: null,
    });
    // Sent before the reference form (in flight during a deploy).
    expect(parseIngestMessage(JSON.stringify({ tenantId: 't', endUserId: 'alice', documentId: 'file_1' }))).toEqual({
      v: 1,
      tenantId: 't',
      documentId: 'file_1',
      endUserId: 'alice',
    });
    for (const junk of [
      '{"tenantId":"t"}',
      'not json',
      '[]',
      'null',
      '{"v":3,"tenantId":"t","documentId":"f","library":"g"}',
      '{"v":2,"tenantId":"t","documentId":"f","library":7}',
      '{"tenantId":"t","documentId":"f","endUserId":5}',
    ]) {
      expect(parseIngestMessage(junk), junk).toBeNull();
    }
    const references = {
      resolveLibraryReference: async (tenantId: string, reference: string) =>
        reference === 'gen-1' ? { tenantId, endUserId: 'alice' } : null,
    };
    expect(await resolveIngestMessage({ v: 2, tenantId: 't', documentId: 'f', library: 'gen-1' }, references)).toEqual({
      tenantId: 't',
      endUserId: 'alice',
      documentId: 'f',
      generation: 'gen-1',
    });
    expect(
      await resolveIngestMessage({ v: 2, tenantId: 't', documentId: 'f', library: 'gen-erased' }, references),
    ).toBeNull();
    expect(await resolveIngestMessage({ v: 2, tenantId: 't', documentId: 'f', library: '' }, references)).toBeNull();
    expect(await resolveIngestMessage({ v: 2, tenantId: 't', documentId: 'f', library: null }, references)).toEqual({
      tenantId: 't',
      endUserId: null,
      documentId: 'f',
    });
    expect(await resolveIngestMessage({ v: 1, tenantId: 't', documentId: 'f', endUserId: 'bob' }, references)).toEqual({
      tenantId: 't',
      endUserId: 'bob',
      documentId: 'f',
    });
  });

  it('authorizes a live key by its hash, hands the tenant over and names its usage plan key (the hash, not the key)', async () => {
    const key = `lib_${'A'.repeat(40)}`;
    dynamo.on(GetCommand).resolves({});
    dynamo
      .on(GetCommand, { Key: { pk: `KEYHASH#${hashKey(key)}`, sk: 'KEY' } })
      .resolves({ Item: { tenantId: 'ten_1', revokedAt: null } });
    const keys = new KeyService({
      tenants: new DynamoTenantStore(
        DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
        'tenants',
      ),
      clock: { now: () => 'now' },
    });
    const handler = authorizer({ keys });
    const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/v1/search';
    const result = await handler({ type: 'TOKEN', authorizationToken: `Bearer ${key}`, methodArn });
    expect(result).toMatchObject({
      principalId: 'ten_1',
      context: { tenantId: 'ten_1' },
      usageIdentifierKey: hashKey(key),
    });
    expect(result.usageIdentifierKey).not.toContain(key);
    expect(result.policyDocument.Statement[0]).toMatchObject({
      Effect: 'Allow',
      Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
    });
    await expect(
      handler({ type: 'TOKEN', authorizationToken: `Bearer lib_${'B'.repeat(40)}`, methodArn }),
    ).rejects.toThrow('Unauthorized');
    // A throttled table is not a wrong key: the authorizer fails (API Gateway answers 503), it does not deny.
    dynamo.on(GetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow', $metadata: {} }));
    await expect(handler({ type: 'TOKEN', authorizationToken: `Bearer ${key}`, methodArn })).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
  });

  it('turns throttling into BackendUnavailableError with how long to wait, the Retry-After header first', () => {
    const throttled = Object.assign(new Error('slow down'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 429 },
    });
    expect(retryAfterSeconds(throttled)).toBe(2);
    expect(retryAfterSeconds({ ...throttled, $response: { headers: { 'retry-after': '7' } } })).toBe(7);
    expect(retryAfterSeconds(Object.assign(new Error('x'), { name: 'InternalServerException' }))).toBe(1);
    return expect(callAws('embedder.embed', () => Promise.reject(throttled))).rejects.toMatchObject({
      name: 'BackendUnavailableError',
      retryAfterSeconds: 2,
    });
  });

  it("reads a function's own whole-number variables, naming a missing or out-of-range one", () => {
    expect(readWholeNumber(ENV.ingestConcurrency, { min: 1, max: 16 }, { [ENV.ingestConcurrency]: '4' })).toBe(4);
    expect(() => readWholeNumber(ENV.ingestConcurrency, { min: 1, max: 16 }, {})).toThrow(
      /LIBRARY_INGEST_CONCURRENCY must be a whole number from 1 to 16/,
    );
    expect(() =>
      readWholeNumber(ENV.ingestConcurrency, { min: 1, max: 16 }, { [ENV.ingestConcurrency]: '32' }),
    ).toThrow(ConfigError);
    expect(() => readWholeNumber(ENV.staleAfterSeconds, { min: 60 }, { [ENV.staleAfterSeconds]: '1.5' })).toThrow(
      /LIBRARY_STALE_AFTER_SECONDS/,
    );
  });
});
