import { readFileSync } from 'node:fs';
import { DecryptCommand, GenerateMacCommand, KMSClient } from '@aws-sdk/client-kms';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DetectDocumentTextCommand,
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
} from '@aws-sdk/client-textract';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBucketRegistrations } from '../../../lambdas/adapters/aws/dynamo-bucket-registrations.js';
import { DynamoDocumentStore } from '../../../lambdas/adapters/aws/dynamo-document-store.js';
import { DynamoTenantStore } from '../../../lambdas/adapters/aws/dynamo-tenant-store.js';
import { DynamoUsageLedger } from '../../../lambdas/adapters/aws/dynamo-usage-ledger.js';
import {
  BUCKETS_TABLE,
  DOCUMENTS_TABLE,
  TENANTS_TABLE,
  USAGE_TABLE,
} from '../../../lambdas/adapters/aws/table-schemas.js';
import { bucketBlobKey, bucketLocation } from '../../../lambdas/core/bucket/placement.js';
import { systemClock } from '../../../lambdas/core/dates.js';
import { KeyService } from '../../../lambdas/core/keys.js';
import { baseLogger, hashEndUser } from '../../../lambdas/http/observability.js';
import { ENV } from '../../../lambdas/wiring/aws/config.js';
import { functionSpecs } from '../../../lib/functions.js';
import { documentRecord, timestamp } from '../../contract/fixtures.js';
import { makePdf, renderTextPng } from '../../extraction/fixtures.js';
import { type CustomerBucket, startCustomerBucket } from '../../support/customer-bucket.js';
import { presignedSignatureHolds } from '../../support/sigv4-query.js';
import { startDynalite } from './local-aws.js';

/**
 * The Lambda entries themselves (index.ts), each wiring its own ports from
 * the environment the stack sets, against dynalite: proves the variables,
 * the clients and the adapters fit together, and that every entry starts.
 */
let dynamo: Awaited<ReturnType<typeof startDynalite>>;
let tenantsTable: string;
let documentsTable: string;
let usageTable: string;
let bucketsTable: string;
/** An S3 API (s3rver) standing in for the service's blob bucket (`blobs`) and a customer's bucket, reached through AWS_ENDPOINT_URL_S3. */
let s3: CustomerBucket;
const BUCKET_PRINCIPAL = 'arn:aws:iam::123456789012:role/Library-Api-CallerBucketAccessRole-ABC123';

beforeAll(async () => {
  dynamo = await startDynalite();
  tenantsTable = await dynamo.createTable(TENANTS_TABLE);
  documentsTable = await dynamo.createTable(DOCUMENTS_TABLE);
  usageTable = await dynamo.createTable(USAGE_TABLE);
  bucketsTable = await dynamo.createTable(BUCKETS_TABLE);
  const endpoint = await dynamo.endpoint();
  s3 = await startCustomerBucket(['blobs', 'customer-bucket']);
  // The functions' own credentials (below) are a key pair s3rver knows.
  s3.addKey('local', 'local');
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    POWERTOOLS_TRACE_ENABLED: 'false',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    LIBRARY_VERSION: '1.2.3',
    LIBRARY_TENANTS_TABLE: tenantsTable,
    LIBRARY_DOCUMENTS_TABLE: documentsTable,
    LIBRARY_USAGE_TABLE: usageTable,
    LIBRARY_BLOB_BUCKET: 'blobs',
    LIBRARY_SEARCH_ENDPOINT: 'https://search.invalid',
    LIBRARY_SEARCH_INDEX_PREFIX: 'library',
    LIBRARY_EMBEDDING_MODEL_ID: 'amazon.titan-embed-text-v2:0',
    LIBRARY_EMBEDDING_DIMENSIONS: '512',
    LIBRARY_CHAT_MODEL_ID: 'anthropic.claude-3-haiku-20240307-v1:0',
    LIBRARY_INGEST_QUEUE_URL: 'https://sqs.invalid/q',
    LIBRARY_INLINE_MAX_BYTES: '1048576',
    LIBRARY_INGEST_MAX_RECEIVE_COUNT: '3',
    LIBRARY_INGEST_CONCURRENCY: '4',
    LIBRARY_STALE_AFTER_SECONDS: '14400',
    LIBRARY_BUCKETS_TABLE: bucketsTable,
    LIBRARY_BUCKET_ACCESS_ROLE_ARN: BUCKET_PRINCIPAL,
    LIBRARY_BUCKET_SECRETS_KEY_ARN: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000000',
  });
});
afterAll(async () => {
  await dynamo?.close();
  await s3?.close();
});

const context = { awsRequestId: 'r', functionName: 'f', getRemainingTimeInMillis: () => 1000 } as unknown as Context;
const event = (over: Partial<APIGatewayProxyEvent>): APIGatewayProxyEvent =>
  ({
    headers: {},
    queryStringParameters: null,
    pathParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req_1' },
    ...over,
  }) as never;

describe('Lambda entries on the AWS composition root', () => {
  it('health reports the AWS backend and the configured embedder; a key it is sent is checked in the tenants table and adds the details', async () => {
    const { handler } = await import('../../../lambdas/endpoints/health/index.js');
    const response = await handler(event({}), context);
    // Anonymous: up or degraded and what runs, nothing more.
    expect(JSON.parse(response.body)).toEqual({
      status: 'ok',
      version: '1.2.3',
      backend: 'aws',
      embedder: { name: 'amazon.titan-embed-text-v2:0', dimensions: 512 },
    });
    expect(response.headers?.['x-request-id']).toBe('req_1');

    const issued = await new KeyService({
      tenants: new DynamoTenantStore(dynamo.client, tenantsTable),
      clock: systemClock(),
    }).create('health-reader');
    const keyed = await handler(event({ headers: { Authorization: `Bearer ${issued.api_key}` } }), context);
    expect(JSON.parse(keyed.body)).toEqual({
      status: 'ok',
      version: '1.2.3',
      backend: 'aws',
      embedder: { name: 'amazon.titan-embed-text-v2:0', dimensions: 512, state: 'ok', detail: null },
      // The SQS backlog is not read by a health check (no client, no call): CloudWatch has it.
      ingest: null,
      // A health call on AWS touches no store but the key's own item.
      dependencies: {},
    });
    const unknown = await handler(event({ headers: { authorization: `Bearer lib_${'q'.repeat(40)}` } }), context);
    expect(JSON.parse(unknown.body)).toEqual(JSON.parse(response.body));
  });

  it('the authorizer accepts a key created in the tenants table and refuses another', async () => {
    const keys = new KeyService({ tenants: new DynamoTenantStore(dynamo.client, tenantsTable), clock: systemClock() });
    const issued = await keys.create('acme');
    const { handler } = await import('../../../lambdas/endpoints/authorizer/index.js');
    const methodArn = 'arn:aws:execute-api:us-east-1:123456789012:api/prod/GET/v1/documents';
    await expect(
      handler({ type: 'TOKEN', authorizationToken: `Bearer ${issued.api_key}`, methodArn }),
    ).resolves.toMatchObject({ context: { tenantId: issued.tenant_id } });
    await expect(
      handler({ type: 'TOKEN', authorizationToken: `Bearer lib_${'x'.repeat(40)}`, methodArn }),
    ).rejects.toThrow('Unauthorized');
  });

  it('documents-list reads the caller tenant library from DynamoDB, and only it', async () => {
    const store = new DynamoDocumentStore(dynamo.client, documentsTable);
    const mine = { tenantId: 'ten_mine', endUserId: null };
    await store.touchLibrary(mine, timestamp());
    const doc = documentRecord(mine, { status: 'ready' });
    await store.claim(doc);
    await store.touchLibrary({ tenantId: 'ten_other', endUserId: null }, timestamp());
    await store.claim(documentRecord({ tenantId: 'ten_other', endUserId: null }, { status: 'ready' }));

    const { handler } = await import('../../../lambdas/endpoints/documents-list/index.js');
    const response = await handler(
      event({ requestContext: { requestId: 'req_2', authorizer: { tenantId: 'ten_mine' } } as never }),
      context,
    );
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body);
    expect(body.documents.map((d: { id: string }) => d.id)).toEqual([doc.id]);
  });

  it('an entry that names end users derives the end-user log key from KMS once, and its access line names the end user by that HMAC', async () => {
    const kms = mockClient(KMSClient);
    const mac = new Uint8Array(32).fill(7);
    kms.on(GenerateMacCommand).resolves({ Mac: mac });
    process.env[ENV.endUserLogKeyArn] = 'arn:aws:kms:us-east-1:123456789012:key/99999999-0000-0000-0000-000000000000';
    baseLogger.setLogLevel('INFO');
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      const { handler } = await import('../../../lambdas/endpoints/documents-list/index.js');
      for (const requestId of ['req_k1', 'req_k2']) {
        const response = await handler(
          event({
            queryStringParameters: { end_user_id: 'carol@example.com' },
            requestContext: { requestId, authorizer: { tenantId: 'ten_logs' } } as never,
          }),
          context,
        );
        expect(response.statusCode).toBe(200);
      }
    } finally {
      process.stdout.write = write;
      baseLogger.setLogLevel('SILENT');
      delete process.env[ENV.endUserLogKeyArn];
      kms.restore();
    }
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(1);
    expect(kms.commandCalls(GenerateMacCommand)[0]!.args[0].input).toMatchObject({
      KeyId: expect.stringContaining(':key/9999'),
      MacAlgorithm: 'HMAC_SHA_256',
    });
    const access = written
      .join('')
      .split('\n')
      .filter((l) => l.includes('"message":"access"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(access.map((l) => l.requestId)).toEqual(['req_k1', 'req_k2']);
    for (const line of access) expect(line.endUser).toBe(hashEndUser('ten_logs', 'carol@example.com', mac));
    expect(written.join('')).not.toContain('carol@example.com');
  });

  it('document-get reads one document of the caller tenant library, and not another tenant one', async () => {
    const store = new DynamoDocumentStore(dynamo.client, documentsTable);
    const mine = { tenantId: 'ten_get', endUserId: null };
    await store.touchLibrary(mine, timestamp());
    const doc = documentRecord(mine, { status: 'ready' });
    await store.claim(doc);

    const { handler } = await import('../../../lambdas/endpoints/document-get/index.js');
    const get = (tenantId: string) =>
      handler(
        event({
          pathParameters: { id: doc.id },
          requestContext: { requestId: 'req_3', authorizer: { tenantId } } as never,
        }),
        context,
      );
    const response = await get('ten_get');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ id: doc.id });
    expect((await get('ten_other')).statusCode).toBe(404);
  });

  it('usage reports the caller tenant ledger from DynamoDB', async () => {
    const day = new Date().toISOString().slice(0, 10);
    await new DynamoUsageLedger(dynamo.client, usageTable).add('ten_usage', day, {
      captures: 2,
      ocrPages: 0,
      chatCalls: 1,
      tokensUsed: 40,
    });
    const { handler } = await import('../../../lambdas/endpoints/usage/index.js');
    const response = await handler(
      event({ requestContext: { requestId: 'req_4', authorizer: { tenantId: 'ten_usage' } } as never }),
      context,
    );
    expect(response.statusCode).toBe(200);
    expect(JSON.stringify(JSON.parse(response.body))).toContain('40');
  });

  it('the ingest entry reads a PDF of several scanned pages with one Textract job on a copy staged in the blob bucket', async () => {
    // The entry builds its ports on ingestExtractor(), whose whole-PDF OCR this test drives.
    const entry = readFileSync(new URL('../../../lambdas/workers/aws-ingest/index.ts', import.meta.url), 'utf8');
    expect(entry).toMatch(/awsCapturePorts\(ingestExtractor\(\)\)/);

    const textract = mockClient(TextractClient);
    const s3 = mockClient(S3Client);
    try {
      s3.on(PutObjectCommand).resolves({});
      s3.on(DeleteObjectCommand).resolves({});
      textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
      textract.on(GetDocumentTextDetectionCommand).resolves({
        JobStatus: 'SUCCEEDED',
        DocumentMetadata: { Pages: 3 },
        Blocks: [
          { BlockType: 'LINE', Text: 'scanned two', Page: 2 },
          { BlockType: 'LINE', Text: 'scanned three', Page: 3 },
        ],
      });
      const scan = await renderTextPng(['scan']);
      const pdf = await makePdf([{ text: 'Typed page' }, { image: scan }, { image: scan }]);
      const { ingestExtractor } = await import('../../../lambdas/wiring/aws/extractors.js');
      const extractor = ingestExtractor();
      const out = await extractor
        .extract({ bytes: pdf, declaredContentType: 'application/pdf', filename: 'scan.pdf' })
        .finally(() => extractor.close());
      expect(out).toMatchObject({ text: 'Typed page\n\nscanned two\n\nscanned three', pageCount: 3, ocrPages: 3 });
      const staged = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
      expect(staged).toMatchObject({
        Bucket: 'blobs',
        Key: expect.stringMatching(/^textract-staging\/[0-9a-f]{64}\.pdf$/),
      });
      expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(1);
      expect(
        textract.commandCalls(StartDocumentTextDetectionCommand)[0]!.args[0].input.DocumentLocation?.S3Object,
      ).toEqual({ Bucket: 'blobs', Name: staged.Key });
      expect(textract.commandCalls(DetectDocumentTextCommand)).toHaveLength(0);
      expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'blobs', Key: staged.Key });
    } finally {
      textract.restore();
      s3.restore();
    }
  }, 60_000);

  it('the bucket entries: the trust policy names the dedicated role and one stable external id per tenant; no registration reads 404; a loopback endpoint is refused on AWS', async () => {
    const as = (tenantId: string, over: Partial<APIGatewayProxyEvent> = {}) =>
      event({ requestContext: { requestId: 'req_b', authorizer: { tenantId } } as never, ...over });
    const { handler: trustPolicy } = await import('../../../lambdas/endpoints/bucket-trust-policy/index.js');
    const first = JSON.parse((await trustPolicy(as('ten_bucket'), context)).body);
    expect(first.service_principal_arn).toBe(BUCKET_PRINCIPAL);
    expect(first.trust_policy.Statement[0]).toEqual({
      Effect: 'Allow',
      Principal: { AWS: BUCKET_PRINCIPAL },
      Action: 'sts:AssumeRole',
      Condition: { StringEquals: { 'sts:ExternalId': first.external_id } },
    });
    const again = JSON.parse((await trustPolicy(as('ten_bucket'), context)).body);
    const other = JSON.parse((await trustPolicy(as('ten_other_bucket'), context)).body);
    expect(again.external_id).toBe(first.external_id);
    expect(other.external_id).not.toBe(first.external_id);

    const { handler: get } = await import('../../../lambdas/endpoints/bucket-get/index.js');
    expect((await get(as('ten_bucket'), context)).statusCode).toBe(404);

    // LIBRARY_ALLOW_PRIVATE_ENDPOINTS is never read on AWS: a loopback endpoint is refused before any call.
    process.env.LIBRARY_ALLOW_PRIVATE_ENDPOINTS = '1';
    try {
      const { handler: put } = await import('../../../lambdas/endpoints/bucket-put/index.js');
      const body = JSON.stringify({
        provider: 's3',
        bucket: 'customer-bucket',
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9000',
        access_key_id: 'AKIAEXAMPLE',
        secret_access_key: 'not-a-real-secret',
      });
      // Everything the function writes (its JSON log lines go to stdout, logged at INFO as deployed) is kept, to be searched for the secret.
      baseLogger.setLogLevel('INFO');
      const written: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        written.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof process.stdout.write;
      let refused: Awaited<ReturnType<typeof put>>;
      try {
        refused = await put(
          as('ten_bucket', { httpMethod: 'PUT', body, headers: { 'content-type': 'application/json' } }),
          context,
        );
      } finally {
        process.stdout.write = write;
        baseLogger.setLogLevel('SILENT');
      }
      expect(refused.statusCode).toBe(422);
      expect(JSON.parse(refused.body).error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/^endpoint/),
      });
      expect(refused.body).not.toContain('not-a-real-secret');
      expect(written.join('')).toContain('ten_bucket');
      expect(written.join('')).not.toContain('not-a-real-secret');
    } finally {
      delete process.env.LIBRARY_ALLOW_PRIVATE_ENDPOINTS;
    }
  });

  it('document-content reads the document of the caller library in DynamoDB: 404 for another tenant or end user, 409 while its text is not known and after it failed', async () => {
    const store = new DynamoDocumentStore(dynamo.client, documentsTable);
    const mine = { tenantId: 'ten_content', endUserId: 'erin' };
    await store.touchLibrary(mine, timestamp());
    const queued = documentRecord(mine, {
      status: 'processing',
      passageCount: null,
      passagesEmbedded: 0,
      kind: 'file',
      blobKey: 'blobs/ten_content/x',
    });
    const failed = documentRecord(mine, { status: 'failed', failureReason: 'extraction_failed: the PDF is corrupt' });
    await store.claim(queued);
    await store.claim(failed);
    const { handler } = await import('../../../lambdas/endpoints/document-content/index.js');
    const read = (id: string, tenantId: string, query: Record<string, string> | null) =>
      handler(
        event({
          pathParameters: { id },
          queryStringParameters: query,
          requestContext: { requestId: 'req_c', authorizer: { tenantId } } as never,
        }),
        context,
      );
    const notReady = await read(queued.id, 'ten_content', { end_user_id: 'erin', from_line: '1' });
    expect(notReady.statusCode).toBe(409);
    expect(JSON.parse(notReady.body).error).toMatchObject({
      code: 'not_ready',
      message: expect.stringContaining('still being extracted'),
    });
    const gaveUp = await read(failed.id, 'ten_content', { end_user_id: 'erin' });
    expect(gaveUp.statusCode).toBe(409);
    expect(JSON.parse(gaveUp.body).error.message).toContain('extraction_failed: the PDF is corrupt');
    expect((await read(queued.id, 'ten_content', null)).statusCode).toBe(404);
    expect((await read(queued.id, 'ten_other', { end_user_id: 'erin' })).statusCode).toBe(404);
    const typo = await read(queued.id, 'ten_content', { end_user_id: 'erin', lmit: '5' });
    expect(typo.statusCode).toBe(422);
    expect(JSON.parse(typo.body).error.message).toBe('lmit: unknown parameter');
  });

  it("document-file answers a file in the service's bucket with a 302 to a URL presigned for 300 s with the function's credentials, serving the bytes with their type and name", async () => {
    const store = new DynamoDocumentStore(dynamo.client, documentsTable);
    const mine = { tenantId: 'ten_file', endUserId: null };
    await store.touchLibrary(mine, timestamp());
    const pdf = await makePdf([{ text: 'Signed on Tuesday' }]);
    const doc = documentRecord(mine, {
      kind: 'file',
      contentType: 'application/pdf',
      filename: 'contrat signé.pdf',
      blobKey: 'blobs/ten_file/contract',
      sizeBytes: pdf.byteLength,
    });
    await store.claim(doc);
    const admin = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    });
    await admin.send(
      new PutObjectCommand({ Bucket: 'blobs', Key: doc.blobKey!, Body: pdf, ContentType: 'application/octet-stream' }),
    );
    admin.destroy();

    const { handler } = await import('../../../lambdas/endpoints/document-file/index.js');
    const download = (tenantId: string, headers: Record<string, string> = {}) =>
      handler(
        event({
          pathParameters: { id: doc.id },
          headers,
          requestContext: { requestId: 'req_f', authorizer: { tenantId } } as never,
        }),
        context,
      );
    const response = await download('ten_file');
    expect(response.statusCode).toBe(302);
    expect(response.isBase64Encoded).toBe(false);
    const location = response.headers!.location as string;
    expect(location.startsWith(`${s3.endpoint}/blobs/blobs/ten_file/contract?`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300');
    expect(presignedSignatureHolds(location, 'local')).toBe(true);
    expect(response.headers).toMatchObject({ 'cache-control': 'private, no-store', 'x-request-id': 'req_f' });
    // Followed without the key, as a client does: the bytes, answered with the document's type and name.
    const followed = await fetch(location);
    expect(followed.status).toBe(200);
    expect(Buffer.from(await followed.arrayBuffer()).equals(pdf)).toBe(true);
    expect(followed.headers.get('content-type')).toBe('application/pdf');
    expect(followed.headers.get('content-disposition')).toBe(
      `attachment; filename="contrat sign_.pdf"; filename*=UTF-8''contrat%20sign%C3%A9.pdf`,
    );
    expect((await download('ten_someone_else')).statusCode).toBe(404);

    // A browser page asks for the link itself (it can neither read a redirect nor fetch another origin): JSON, same link.
    const asked = await download('ten_file', { Accept: 'application/vnd.library.file-link+json, */*;q=0.1' });
    expect(asked.statusCode).toBe(200);
    expect(asked.headers).toMatchObject({
      'content-type': 'application/vnd.library.file-link+json',
      'cache-control': 'private, no-store',
    });
    const link = JSON.parse(asked.body);
    expect(link).toMatchObject({
      expires_in_seconds: 300,
      filename: 'contrat signé.pdf',
      content_type: 'application/pdf',
    });
    expect(presignedSignatureHolds(link.url, 'local')).toBe(true);
    const opened = await fetch(link.url);
    expect(Buffer.from(await opened.arrayBuffer()).equals(pdf)).toBe(true);
    expect(opened.headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it("document-file answers a file in the caller's registered bucket with a URL presigned with the caller's keys (their secret opened by KMS under the tenant's context); unregistered, 404", async () => {
    const secret = `customer-${crypto.randomUUID()}`;
    s3.addKey('AKIACUSTOMER', secret);
    const kms = mockClient(KMSClient);
    kms
      .on(DecryptCommand, { EncryptionContext: { tenant_id: 'ten_caller' } })
      .resolves({ Plaintext: new TextEncoder().encode(secret) });
    try {
      const registrations = new DynamoBucketRegistrations(dynamo.client, bucketsTable);
      const location = bucketLocation('s3', s3.endpoint, 'customer-bucket');
      await registrations.put({
        tenantId: 'ten_caller',
        provider: 's3',
        bucket: 'customer-bucket',
        region: 'us-east-1',
        endpoint: s3.endpoint,
        prefix: 'library/',
        auth: 'keys',
        roleArn: null,
        accessKeyId: 'AKIACUSTOMER',
        sealedSecret: `kms1.${Buffer.from('sealed').toString('base64')}`,
        location,
        verifiedAt: timestamp(),
        state: 'ok',
        lastError: null,
        lastErrorAt: null,
      });
      const store = new DynamoDocumentStore(dynamo.client, documentsTable);
      const mine = { tenantId: 'ten_caller', endUserId: null };
      await store.touchLibrary(mine, timestamp());
      const doc = documentRecord(mine, {
        kind: 'file',
        contentType: 'text/csv',
        filename: 'rivers.csv',
        storage: 'bucket',
      });
      const objectKey = `library/shared/${doc.id}`;
      await store.claim({ ...doc, blobKey: bucketBlobKey(location, objectKey) });
      const admin = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        forcePathStyle: true,
      });
      await admin.send(
        new PutObjectCommand({ Bucket: 'customer-bucket', Key: objectKey, Body: 'city,river\nLyon,Rhône\n' }),
      );
      admin.destroy();

      const { handler } = await import('../../../lambdas/endpoints/document-file/index.js');
      const download = () =>
        handler(
          event({
            pathParameters: { id: doc.id },
            requestContext: { requestId: 'req_cb', authorizer: { tenantId: 'ten_caller' } } as never,
          }),
          context,
        );
      const response = await download();
      expect(response.statusCode).toBe(302);
      const url = response.headers!.location as string;
      expect(url.startsWith(`${s3.endpoint}/customer-bucket/library/shared/${doc.id}?`)).toBe(true);
      expect(new URL(url).searchParams.get('X-Amz-Credential')).toMatch(/^AKIACUSTOMER\//);
      expect(presignedSignatureHolds(url, secret)).toBe(true);
      expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
      const followed = await fetch(url);
      expect(await followed.text()).toBe('city,river\nLyon,Rhône\n');
      expect(followed.headers.get('content-disposition')).toBe('attachment; filename="rivers.csv"');

      await registrations.delete('ten_caller');
      const gone = await download();
      expect(gone.statusCode).toBe(404);
      expect(JSON.parse(gone.body).error.message).toContain(`as object "${objectKey}"`);
    } finally {
      kms.restore();
    }
  });

  it('every function entry starts on the stack environment (clients made, nothing called)', async () => {
    for (const spec of functionSpecs()) {
      const entry = (await import(spec.entry)) as { handler?: unknown };
      expect(typeof entry.handler, spec.name).toBe('function');
    }
  }, 60_000);
});
