import { createHash, randomBytes } from 'node:crypto';
import { BedrockRuntimeClient, InvokeModelCommand, ThrottlingException } from '@aws-sdk/client-bedrock-runtime';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BedrockEmbedder } from '../../../lambdas/adapters/aws/bedrock-embedder.js';
import { DynamoBucketRegistrations } from '../../../lambdas/adapters/aws/dynamo-bucket-registrations.js';
import { DynamoConversationStore } from '../../../lambdas/adapters/aws/dynamo-conversation-store.js';
import {
  DynamoDocumentStore,
  LIBRARY_REFERENCE_TTL_SECONDS,
} from '../../../lambdas/adapters/aws/dynamo-document-store.js';
import { DynamoPendingBucketDeletes } from '../../../lambdas/adapters/aws/dynamo-pending-bucket-deletes.js';
import { DynamoUsageLedger } from '../../../lambdas/adapters/aws/dynamo-usage-ledger.js';
import { S3BlobStore } from '../../../lambdas/adapters/aws/s3-blob-store.js';
import { type IngestMessage, SqsIngestQueue } from '../../../lambdas/adapters/aws/sqs-ingest-queue.js';
import { BUCKETS_TABLE, DOCUMENTS_TABLE, USAGE_TABLE } from '../../../lambdas/adapters/aws/table-schemas.js';
import { S3BucketConnector } from '../../../lambdas/adapters/caller-bucket/connector.js';
import { AesSecretCipher } from '../../../lambdas/adapters/local/aes-secret-cipher.js';
import { openDatabase } from '../../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../../lambdas/adapters/local/sqlite-search-index.js';
import { BucketService } from '../../../lambdas/core/bucket/bucket-service.js';
import { BucketDeleteRetry } from '../../../lambdas/core/bucket/delete-retry.js';
import { documentBlobs } from '../../../lambdas/core/bucket/document-blobs.js';
import { bucketBlobKey } from '../../../lambdas/core/bucket/placement.js';
import { formatTimestamp, systemClock } from '../../../lambdas/core/dates.js';
import { DocumentService } from '../../../lambdas/core/documents.js';
import { EndUserService } from '../../../lambdas/core/end-users.js';
import { BackendUnavailableError, CaptureRejected } from '../../../lambdas/core/errors.js';
import { IngestWorker } from '../../../lambdas/core/ingest-worker.js';
import type { LibraryRef } from '../../../lambdas/core/model.js';
import type { CallerBuckets, TextExtractor } from '../../../lambdas/core/ports.js';
import { unwired } from '../../../lambdas/wiring/aws/unwired-port.js';
import { buildCaptureServices, type CapturePorts } from '../../../lambdas/wiring/capture-services.js';
import { type IngestHandlerDeps, createHandler as ingestHandler } from '../../../lambdas/workers/aws-ingest/handler.js';
import { ABANDONED_REASON, createHandler as sweeperHandler } from '../../../lambdas/workers/aws-sweeper/handler.js';
import { startDynalite, startS3rver } from './local-aws.js';

/**
 * The AWS ingest worker and sweeper, end to end on the AWS adapters: documents
 * and usage on dynalite, bytes on s3rver, Titan (Bedrock) and SQS through
 * aws-sdk-client-mock. The search index is the local one, a faithful stand-in
 * for OpenSearch here (both pass test/contract/search-index.contract.ts).
 */
const bedrock = mockClient(BedrockRuntimeClient);
const sqs = mockClient(SQSClient);
const MODEL = 'amazon.titan-embed-text-v2:0';
const DIMENSIONS = 256;
const ref: LibraryRef = { tenantId: 'ten_ingest', endUserId: 'alice' };

let dynamo: Awaited<ReturnType<typeof startDynalite>>;
let s3: Awaited<ReturnType<typeof startS3rver>>;

beforeAll(async () => {
  [dynamo, s3] = await Promise.all([startDynalite(), startS3rver()]);
});
afterAll(async () => {
  bedrock.restore();
  sqs.restore();
  await Promise.all([dynamo?.close(), s3?.close()]);
});

/** Titan's answer: a unit vector that depends on the text, and a token count. */
function titan(inputText: string) {
  const v = Array.from(
    { length: DIMENSIONS },
    (_, i) =>
      createHash('sha256')
        .update(`${inputText}|${i % 8}`)
        .digest()[i % 32]! - 128,
  );
  const norm = Math.hypot(...v);
  return {
    body: new TextEncoder().encode(
      JSON.stringify({ embedding: v.map((x) => x / norm), inputTextTokenCount: 5 }),
    ) as never,
  };
}
const throttle = () =>
  new ThrottlingException({
    message: 'Too many requests, please wait before trying again.',
    $metadata: { httpStatusCode: 429 },
  });

/** "PDFs" are slow work (queued); one that says OCR-DOWN meets a throttled OCR engine. */
const extractor: TextExtractor = {
  async isSlowWork(bytes) {
    return Buffer.from(bytes).subarray(0, 5).toString() === '%PDF-';
  },
  async extract({ bytes }) {
    const text = Buffer.from(bytes)
      .toString('utf8')
      .replace(/^%PDF-\S*\n/, '');
    if (text.includes('OCR-DOWN')) throw new BackendUnavailableError('ocr.recognize: ThrottlingException');
    if (text.includes('UNREADABLE')) throw new CaptureRejected('extraction_failed', 'the file is damaged');
    return { text, kind: 'file', contentType: 'application/pdf', pageCount: 1, ocrPages: 1 };
  },
};

let buckets = 0;
async function awsStack(options: { callerBuckets?: boolean } = {}) {
  const bucket = `ingest-${++buckets}`;
  await s3.client.send(new CreateBucketCommand({ Bucket: bucket }));
  const documentsTable = await dynamo.createTable(DOCUMENTS_TABLE);
  const ports: CapturePorts = {
    documents: new DynamoDocumentStore(dynamo.client, documentsTable),
    blobs: new S3BlobStore(s3.client, bucket),
    index: new SqliteSearchIndex(openDatabase(':memory:'), DIMENSIONS, MODEL),
    // maxAttempts 1: the SDK's own retries would hide the throttles this test drives.
    embedder: new BedrockEmbedder(new BedrockRuntimeClient({ region: 'us-east-1', maxAttempts: 1 }), {
      modelId: MODEL,
      dimensions: DIMENSIONS,
    }),
    extractor,
    clock: systemClock(),
    usage: new DynamoUsageLedger(dynamo.client, await dynamo.createTable(USAGE_TABLE)),
    buckets: options.callerBuckets ? await callerBucketPorts() : undefined,
  };
  const documents = ports.documents as DynamoDocumentStore;
  const queue = new SqsIngestQueue(
    new SQSClient({ region: 'us-east-1' }),
    'https://sqs.us-east-1.amazonaws.com/1/ingest',
    documents,
  );
  const services = buildCaptureServices(ports, queue);
  /** The job messages SQS was sent, in order. */
  const sent = () =>
    sqs.commandCalls(SendMessageCommand).map((c) => JSON.parse(c.args[0].input.MessageBody!) as IngestMessage);
  /** The bodies as SQS keeps them. */
  const bodies = () => sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input.MessageBody!);
  return { ports, documents, documentsTable, ...services, sent, bodies };
}

/**
 * Callers' buckets as the AWS stack wires them (buckets table on dynalite,
 * the shared connector), reaching s3rver by keys; the KMS cipher is stood in
 * for by the local AES one (KMS has its own test), and loopback is allowed
 * for the test server only.
 */
async function callerBucketPorts(): Promise<CallerBuckets> {
  const table = await dynamo.createTable(BUCKETS_TABLE);
  return {
    registrations: new DynamoBucketRegistrations(dynamo.client, table),
    pendingDeletes: new DynamoPendingBucketDeletes(dynamo.client, table),
    cipher: new AesSecretCipher(randomBytes(32)),
    connector: new S3BucketConnector({ allowPrivateEndpoints: true }),
    principal: { principalArn: async () => 'arn:aws:iam::111111111111:role/dedicated' },
    allowPrivateEndpoints: true,
  };
}

/** A Lambda context whose remaining time follows a fake clock that sleep() advances. */
function fakeTime(budgetMs: number) {
  let now = 0;
  const delays: number[] = [];
  const context = { getRemainingTimeInMillis: () => budgetMs - now } as unknown as Context;
  const sleep = async (ms: number) => {
    delays.push(ms);
    now += ms;
  };
  return { context, sleep, delays };
}

const record = (messageId: string, body: unknown, receiveCount = 1) => ({
  messageId,
  receiptHandle: messageId,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  attributes: { ApproximateReceiveCount: String(receiveCount) },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:1:ingest',
  awsRegion: 'us-east-1',
});
const sqsEvent = (...records: ReturnType<typeof record>[]) => ({ Records: records }) as unknown as SQSEvent;
const file = (text: string) => ({
  contentBase64: Buffer.from(`%PDF-1.7\n${text}`).toString('base64'),
  filename: 'scan.pdf',
  contentType: 'application/pdf',
});
const PARAGRAPHS = Array.from(
  { length: 100 },
  (_, i) => `Paragraph ${i} of the annual report, about revenue in region ${i} and its many customers.`,
).join('\n\n');

function handlerOf(
  stack: Awaited<ReturnType<typeof awsStack>>,
  time: ReturnType<typeof fakeTime>,
  over: Partial<IngestHandlerDeps> = {},
) {
  return ingestHandler({
    worker: stack.worker,
    references: stack.documents,
    maxReceiveCount: 3,
    concurrency: 4,
    stepPassages: 4,
    backoff: { baseDelayMs: 2_000, maxDelayMs: 30_000, marginMs: 60_000 },
    sleep: time.sleep,
    random: () => 1,
    ...over,
  });
}

beforeEach(() => {
  bedrock.reset();
  sqs.reset();
  bedrock
    .on(InvokeModelCommand)
    .callsFake((input) => titan((JSON.parse(input.body as string) as { inputText: string }).inputText));
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
});

describe('the AWS capture path: what is embedded in the request, what goes to SQS', () => {
  it('embeds a small single capture in its request, and queues a batch item, a large text and a file for the worker, which makes them ready', async () => {
    const stack = await awsStack();
    const single = await stack.capture.capture(
      ref,
      { text: 'the meeting moved to thursday afternoon' },
      { interactive: true },
    );
    expect(single.status).toBe('created');
    expect(await stack.ports.documents.get(ref, single.id!)).toMatchObject({
      status: 'ready',
      passageCount: 1,
      passagesEmbedded: 1,
    });
    expect(stack.sent()).toEqual([]);

    const batchItem = await stack.capture.capture(
      ref,
      { text: 'a batch item about the quarterly figures' },
      { interactive: false },
    );
    const large = await stack.capture.capture(ref, { text: PARAGRAPHS }, { interactive: true });
    const pdf = await stack.capture.capture(ref, file('scanned minutes of the board'), { interactive: true });
    const queued = [batchItem, large, pdf].map((r) => r.id!);
    expect(stack.sent().map((j) => j.documentId)).toEqual(queued);
    // Text is findable by words at once; the file only once extracted.
    expect(await stack.ports.documents.get(ref, large.id!)).toMatchObject({
      status: 'processing',
      passagesEmbedded: 0,
    });
    expect((await stack.ports.documents.get(ref, large.id!))!.passageCount).toBeGreaterThan(4);
    expect(await stack.ports.documents.get(ref, pdf.id!)).toMatchObject({ status: 'processing', passageCount: null });

    const time = fakeTime(600_000);
    bedrock.resetHistory();
    const response = await handlerOf(stack, time)(
      sqsEvent(...stack.sent().map((job, i) => record(`m${i}`, job))),
      time.context,
    );
    expect(response.batchItemFailures).toEqual([]);
    let passages = 0;
    for (const id of queued) passages += (await stack.ports.documents.get(ref, id))!.passageCount!;
    // Each passage embedded once (one Titan call each), however many steps ran at once.
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(passages);
    for (const id of queued) {
      const doc = (await stack.ports.documents.get(ref, id))!;
      expect(doc, id).toMatchObject({ status: 'ready', failureReason: null });
      expect(doc.passagesEmbedded, id).toBe(doc.passageCount);
      expect(await stack.ports.index.passagesWithoutVectors(ref, id, { limit: 1 }), id).toEqual([]);
    }
    const [day] = await stack.ports.usage.days(ref.tenantId, '2000-01-01', '2999-12-31');
    expect(day).toMatchObject({ captures: 4, ocrPages: 1 });
    // Titan's reported tokens (5 a text here) for every passage embedded, inline or by the worker.
    expect(day!.tokensUsed).toBe(5 * (passages + 1));
    expect(time.delays).toEqual([]);
  });
});

describe('SQS job bodies: an opaque library reference, never the end user id', () => {
  /** Every item of the documents table (dynalite), as JSON, to search for a name. */
  const tableText = async (stack: Awaited<ReturnType<typeof awsStack>>) => {
    const name = (stack.documents as unknown as { tableName: string }).tableName;
    const out = await dynamo.client.send(new ScanCommand({ TableName: name }));
    return JSON.stringify(out.Items ?? []);
  };

  it("names an end user's library by a reference the worker resolves, the tenant's shared library by null", async () => {
    const stack = await awsStack();
    const endUser = { tenantId: ref.tenantId, endUserId: 'dana@example.com' };
    const mine = await stack.capture.capture(endUser, file('the minutes of the harbour board'), { interactive: false });
    const shared = await stack.capture.capture(
      { tenantId: ref.tenantId, endUserId: null },
      { text: 'a shared note about the harbour' },
      { interactive: false },
    );
    const [mineMessage, sharedMessage] = stack.sent();
    const generation = await stack.documents.libraryGeneration(endUser);
    expect(mineMessage).toEqual({ v: 2, tenantId: ref.tenantId, documentId: mine.id, library: generation });
    expect(sharedMessage).toEqual({ v: 2, tenantId: ref.tenantId, documentId: shared.id, library: null });
    for (const body of stack.bodies()) expect(body).not.toMatch(/dana|example\.com|endUserId/);
    expect(
      await stack.documents.resolveLibraryReference(ref.tenantId, (mineMessage as { library: string }).library),
    ).toEqual(endUser);

    const time = fakeTime(600_000);
    const response = await handlerOf(stack, time)(
      sqsEvent(record('m1', mineMessage), record('m2', sharedMessage)),
      time.context,
    );
    expect(response.batchItemFailures).toEqual([]);
    expect(await stack.ports.documents.get(endUser, mine.id!)).toMatchObject({ status: 'ready' });
    expect(await stack.ports.documents.get({ tenantId: ref.tenantId, endUserId: null }, shared.id!)).toMatchObject({
      status: 'ready',
    });
  });

  it('writes the reference once for the jobs of one library, not once per job', async () => {
    const stack = await awsStack();
    const endUser = { tenantId: ref.tenantId, endUserId: 'erin' };
    const spy = vi.spyOn(stack.documents, 'libraryReference');
    for (const text of ['one queued note', 'two queued notes', 'three queued notes'])
      await stack.capture.capture(endUser, { text }, { interactive: false });
    expect(new Set(stack.sent().map((m) => (m as { library: string }).library)).size).toBe(1);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('after an erasure the body reveals nothing and resolves to nothing: the worker skips it, and no item names the end user', async () => {
    const stack = await awsStack();
    const endUser = { tenantId: ref.tenantId, endUserId: 'frank@example.com' };
    await stack.capture.capture(endUser, file('frank keeps his scans here'), { interactive: false });
    const [message] = stack.sent();
    expect(await tableText(stack)).toContain('frank@example.com');
    const erasure = new EndUserService({
      documents: stack.ports.documents,
      index: stack.ports.index,
      blobs: stack.ports.blobs,
      conversations: new DynamoConversationStore(dynamo.client, stack.documentsTable),
    });
    expect(await erasure.erase(endUser.tenantId, endUser.endUserId)).toMatchObject({
      deleted: true,
      documents_deleted: 1,
    });

    // Nothing in the table names the end user any more, the reference included (the erasure removed it; no job had to).
    expect(await tableText(stack)).not.toContain('frank@example.com');
    expect(stack.bodies().join('')).not.toContain('frank');
    expect(
      await stack.documents.resolveLibraryReference(ref.tenantId, (message as { library: string }).library),
    ).toBeNull();
    const time = fakeTime(600_000);
    const response = await handlerOf(stack, time)(sqsEvent(record('m1', message)), time.context);
    expect(response.batchItemFailures).toEqual([]);
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(0);
    // A new library for the same id is another generation: the old body names nothing in it either.
    await stack.capture.capture(endUser, { text: 'frank starts again' }, { interactive: false });
    const again = stack.sent().at(-1) as { library: string };
    expect(again.library).not.toBe((message as { library: string }).library);
    expect(
      await stack.documents.resolveLibraryReference(ref.tenantId, (message as { library: string }).library),
    ).toBeNull();
  });

  it('removes a reference an erasure cut short left behind the first time a job names it, and lets it expire anyway', async () => {
    const stack = await awsStack();
    const endUser = { tenantId: ref.tenantId, endUserId: 'gina' };
    const generation = await stack.documents.touchLibrary(endUser, formatTimestamp(new Date()));
    const before = Math.floor(Date.now() / 1000);
    const reference = await stack.documents.libraryReference(endUser, generation);
    const text = await tableText(stack);
    const item = (JSON.parse(text) as Array<Record<string, unknown>>).find(
      (i) => i.sk === 'LIB' && String(i.pk).startsWith('LIBREF#'),
    )!;
    expect(item.expiresAt as number).toBeGreaterThanOrEqual(before + LIBRARY_REFERENCE_TTL_SECONDS);
    expect(LIBRARY_REFERENCE_TTL_SECONDS).toBeGreaterThan(14 * 24 * 3600);
    // The library item goes as an erasure's first step does, and the erasure stops there.
    const name = (stack.documents as unknown as { tableName: string }).tableName;
    await dynamo.client.send(
      new DeleteCommand({ TableName: name, Key: { pk: `LIBS#${endUser.tenantId}`, sk: `U#${endUser.endUserId}` } }),
    );
    expect(await tableText(stack)).toContain('gina');
    expect(await stack.documents.resolveLibraryReference(endUser.tenantId, reference)).toBeNull();
    expect(await tableText(stack)).not.toContain('gina');
  });

  it('a reference written for a library already erased resolves to nothing and leaves nothing', async () => {
    const stack = await awsStack();
    const endUser = { tenantId: ref.tenantId, endUserId: 'hugo' };
    const generation = await stack.documents.touchLibrary(endUser, formatTimestamp(new Date()));
    await stack.documents.deleteLibrary(endUser);
    const reference = await stack.documents.libraryReference(endUser, generation);
    expect(await stack.documents.resolveLibraryReference(endUser.tenantId, reference)).toBeNull();
    expect(await tableText(stack)).not.toContain('hugo');
  });

  it('still works a message of the earlier form (end user id in the body) sent before a deploy', async () => {
    const stack = await awsStack();
    const receipt = await stack.capture.capture(ref, { text: 'queued before the deploy' }, { interactive: false });
    const old = { tenantId: ref.tenantId, endUserId: ref.endUserId, documentId: receipt.id };
    const time = fakeTime(600_000);
    const response = await handlerOf(stack, time)(sqsEvent(record('m-old', old)), time.context);
    expect(response.batchItemFailures).toEqual([]);
    expect(await stack.ports.documents.get(ref, receipt.id!)).toMatchObject({ status: 'ready' });
  });

  it('hands a job back to SQS when its reference cannot be read yet (DynamoDB failing), and does not drop it', async () => {
    const stack = await awsStack();
    const receipt = await stack.capture.capture(
      ref,
      { text: 'resolved on the second delivery' },
      { interactive: false },
    );
    const [message] = stack.sent();
    const flaky = {
      resolveLibraryReference: async () => {
        throw new BackendUnavailableError('documents.resolveLibraryReference: throttled');
      },
    };
    const time = fakeTime(600_000);
    const first = await handlerOf(stack, time, { references: flaky })(sqsEvent(record('m1', message)), time.context);
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    const second = await handlerOf(stack, time)(sqsEvent(record('m1', message, 2)), time.context);
    expect(second.batchItemFailures).toEqual([]);
    expect(await stack.ports.documents.get(ref, receipt.id!)).toMatchObject({ status: 'ready' });
  });
});

describe('the ingest worker Lambda (SQS, Powertools batch)', () => {
  it('reports only the failing record as a batch item failure, and drops a malformed message', async () => {
    const stack = await awsStack();
    const good = await stack.capture.capture(
      ref,
      { text: 'the good one, about lunch on friday' },
      { interactive: false },
    );
    const bad = await stack.capture.capture(ref, file('OCR-DOWN for this one'), { interactive: false });
    const [goodJob, badJob] = stack.sent();
    // Too little time left to wait out the throttled OCR in this invocation.
    const time = fakeTime(30_000);
    const response = await handlerOf(stack, time)(
      sqsEvent(record('m-good', goodJob), record('m-bad', badJob), record('m-junk', 'not json')),
      time.context,
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-bad' }]);
    expect(await stack.ports.documents.get(ref, good.id!)).toMatchObject({ status: 'ready' });
    expect(await stack.ports.documents.get(ref, bad.id!)).toMatchObject({ status: 'processing', failureReason: null });
    expect(time.delays).toEqual([]);
  });

  it('backs off on Bedrock throttling with exponential delays and jitter, and finishes the job within the invocation', async () => {
    const stack = await awsStack();
    const receipt = await stack.capture.capture(
      ref,
      { text: 'one passage, embedded after two throttles' },
      { interactive: false },
    );
    let calls = 0;
    bedrock.on(InvokeModelCommand).callsFake((input) => {
      if (++calls <= 2) throw throttle();
      return titan((JSON.parse(input.body as string) as { inputText: string }).inputText);
    });
    const time = fakeTime(600_000);
    // One lane: every call is the retried step's own, so the throttles fall where this test puts them.
    const response = await handlerOf(stack, time, { concurrency: 1 })(
      sqsEvent(record('m1', stack.sent()[0])),
      time.context,
    );
    expect(response.batchItemFailures).toEqual([]);
    expect(await stack.ports.documents.get(ref, receipt.id!)).toMatchObject({
      status: 'ready',
      passageCount: 1,
      passagesEmbedded: 1,
    });
    // Doubling from 2 s (the jitter's random() is 1 here, so its upper bound); never shorter than the throttle's hint.
    expect(time.delays).toEqual([2_000, 4_000]);
    expect(calls).toBe(3);
  });

  it('draws each delay between half and all of its exponential bound, and never past the cap', async () => {
    const stack = await awsStack();
    const receipt = await stack.capture.capture(ref, { text: 'throttled many times over' }, { interactive: false });
    let calls = 0;
    bedrock.on(InvokeModelCommand).callsFake((input) => {
      if (++calls <= 6) throw throttle();
      return titan((JSON.parse(input.body as string) as { inputText: string }).inputText);
    });
    const time = fakeTime(600_000);
    await handlerOf(stack, time, {
      concurrency: 1,
      random: () => 0,
      backoff: { baseDelayMs: 8_000, maxDelayMs: 20_000, marginMs: 60_000 },
    })(sqsEvent(record('m1', stack.sent()[0])), time.context);
    expect(time.delays).toEqual([4_000, 8_000, 10_000, 10_000, 10_000, 10_000]);
    expect(await stack.ports.documents.get(ref, receipt.id!)).toMatchObject({ status: 'ready' });
  });

  it('hands a job back to SQS when the throttling outlasts the invocation, its finished steps kept', async () => {
    const stack = await awsStack();
    const receipt = await stack.capture.capture(ref, { text: PARAGRAPHS }, { interactive: false });
    const passageCount = (await stack.ports.documents.get(ref, receipt.id!))!.passageCount!;
    let calls = 0;
    bedrock.on(InvokeModelCommand).callsFake((input) => {
      if (++calls > 8) throw throttle();
      return titan((JSON.parse(input.body as string) as { inputText: string }).inputText);
    });
    const time = fakeTime(120_000);
    const response = await handlerOf(stack, time, { concurrency: 1 })(
      sqsEvent(record('m1', stack.sent()[0])),
      time.context,
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    // Waited while the time allowed, and stopped a margin before the end.
    expect(time.delays.length).toBeGreaterThan(0);
    expect(time.delays.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(120_000 - 60_000);
    const doc = (await stack.ports.documents.get(ref, receipt.id!))!;
    expect(doc).toMatchObject({ status: 'processing', passagesEmbedded: 8 });

    // The next delivery resumes where it stopped: only the passages left are embedded.
    bedrock
      .on(InvokeModelCommand)
      .callsFake((input) => titan((JSON.parse(input.body as string) as { inputText: string }).inputText));
    bedrock.resetHistory();
    const again = fakeTime(600_000);
    expect(
      (await handlerOf(stack, again)(sqsEvent(record('m1', stack.sent()[0], 2)), again.context)).batchItemFailures,
    ).toEqual([]);
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(passageCount - 8);
    expect(await stack.ports.documents.get(ref, receipt.id!)).toMatchObject({
      status: 'ready',
      passagesEmbedded: passageCount,
    });
  });

  it('ends the document failed, with the reason and without index entries, on the final delivery', async () => {
    const stack = await awsStack();
    const receipt = await stack.capture.capture(
      ref,
      { text: 'never embedded: Bedrock throttles throughout' },
      { interactive: false },
    );
    expect(await stack.ports.index.documentText(ref, receipt.id!)).not.toBeNull();
    bedrock.on(InvokeModelCommand).rejects(throttle());
    const time = fakeTime(600_000);
    const response = await handlerOf(stack, time)(sqsEvent(record('m1', stack.sent()[0], 3)), time.context);
    expect(response.batchItemFailures).toEqual([]);
    const doc = (await stack.ports.documents.get(ref, receipt.id!))!;
    expect(doc.status).toBe('failed');
    expect(doc.failureReason).toMatch(
      /^backend_unavailable: indexing gave up after repeated failures \(embedder\.embed: ThrottlingException\)$/,
    );
    expect(await stack.ports.index.documentText(ref, receipt.id!)).toBeNull();
    expect(await stack.ports.documents.listStaleProcessing('9999')).toEqual([]);
    expect(time.delays.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(600_000 - 60_000);
  });

  it('ends an unreadable file failed at once (no retry), and skips a job whose document is gone or settled', async () => {
    const stack = await awsStack();
    const unreadable = await stack.capture.capture(ref, file('UNREADABLE bytes'), { interactive: false });
    const gone = await stack.capture.capture(ref, { text: 'deleted before its job ran' }, { interactive: false });
    const [unreadableJob, goneJob] = stack.sent();
    await stack.ports.index.remove(ref, gone.id!);
    await stack.ports.documents.delete(ref, gone.id!);
    const time = fakeTime(600_000);
    const response = await handlerOf(stack, time)(
      sqsEvent(record('m1', unreadableJob), record('m2', goneJob), record('m3', unreadableJob)),
      time.context,
    );
    expect(response.batchItemFailures).toEqual([]);
    expect(await stack.ports.documents.get(ref, unreadable.id!)).toMatchObject({
      status: 'failed',
      failureReason: 'extraction_failed: the file is damaged',
    });
    expect(time.delays).toEqual([]);
  });
});

describe('the sweeper Lambda', () => {
  it('settles a document left processing past the stale window failed with a reason, its index entries removed, its record and bytes kept', async () => {
    const stack = await awsStack();
    const stale = await stack.capture.capture(ref, file('an upload whose job was lost'), { interactive: false });
    const text = await stack.capture.capture(ref, { text: 'a text whose job was lost too' }, { interactive: false });
    const worker = new IngestWorker({
      documents: stack.ports.documents,
      index: stack.ports.index,
      clock: systemClock(),
      blobs: unwired('blobs'),
      embedder: unwired('embedder'),
      extractor: unwired('extractor'),
      spend: unwired('spend'),
    });
    const sweep = (now: Date) =>
      sweeperHandler({ documents: stack.ports.documents, worker, staleAfterSeconds: 3600, now: () => now })();

    // Within the window: a job may still be on its way.
    expect(await sweep(new Date())).toEqual({ failed: 0, errors: 0 });
    expect(await stack.ports.documents.get(ref, stale.id!)).toMatchObject({ status: 'processing' });

    // Past it: every delivery of the job would have ended by then.
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    expect(await sweep(later)).toEqual({ failed: 2, errors: 0 });
    for (const id of [stale.id!, text.id!]) {
      expect(await stack.ports.documents.get(ref, id), id).toMatchObject({
        status: 'failed',
        failureReason: ABANDONED_REASON,
      });
      expect(await stack.ports.index.documentText(ref, id), id).toBeNull();
    }
    expect(ABANDONED_REASON).toBe('backend_unavailable: indexing did not finish');
    const staleDoc = (await stack.ports.documents.get(ref, stale.id!))!;
    expect(await stack.ports.blobs.get(staleDoc.blobKey!)).not.toBeNull();
    expect(await stack.ports.documents.listStaleProcessing(formatTimestamp(later))).toEqual([]);
    // Sent again, the same content is captured anew.
    const retried = await stack.capture.capture(ref, file('an upload whose job was lost'), { interactive: false });
    expect(retried).toMatchObject({ status: 'created', dedup: false });
    expect(retried.id).not.toBe(stale.id);
  });
});

describe("the AWS capture and ingest path with the tenant's own bucket", () => {
  it("stores a queued file in the caller's bucket only, extracts it from there in the worker, and deletes it there", async () => {
    const stack = await awsStack({ callerBuckets: true });
    const customer = `customer-${++buckets}`;
    await s3.client.send(new CreateBucketCommand({ Bucket: customer }));
    const endpoint = await s3.client.config.endpoint!().then((e) => `${e.protocol}//${e.hostname}:${e.port}`);
    const bucketService = new BucketService({
      buckets: stack.ports.buckets!,
      blobs: stack.ports.blobs,
      clock: systemClock(),
    });
    await bucketService.register(ref.tenantId, {
      provider: 's3',
      bucket: customer,
      region: 'us-east-1',
      endpoint,
      prefix: 'library/',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });

    const pdf = await stack.capture.capture(ref, file('minutes kept in the customer bucket'), { interactive: false });
    expect(pdf.status).toBe('created');
    const doc = (await stack.ports.documents.get(ref, pdf.id!))!;
    expect(doc).toMatchObject({ storage: 'bucket', status: 'processing' });
    const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: customer }));
    expect(objects.Contents?.map((o) => o.Key)).toEqual([`library/end-users/alice/${pdf.id}`]);
    // The service's own bucket got nothing.
    expect((await s3.client.send(new ListObjectsV2Command({ Bucket: `ingest-${buckets - 1}` }))).KeyCount ?? 0).toBe(0);

    // The worker reads the queued bytes back from the caller's bucket.
    const time = fakeTime(600_000);
    const response = await handlerOf(stack, time)(sqsEvent(record('m1', stack.sent().at(-1))), time.context);
    expect(response.batchItemFailures).toEqual([]);
    expect(await stack.ports.documents.get(ref, pdf.id!)).toMatchObject({ status: 'ready' });
    expect(await stack.ports.index.documentText(ref, pdf.id!)).toContain('minutes kept in the customer bucket');
    const stored = await s3.client.send(
      new GetObjectCommand({ Bucket: customer, Key: `library/end-users/alice/${pdf.id}` }),
    );
    expect(await stored.Body!.transformToString()).toContain('minutes kept in the customer bucket');

    // Deleting the document deletes the object in the caller's bucket, and counts it.
    const documents = new DocumentService({
      documents: stack.ports.documents,
      index: stack.ports.index,
      blobs: stack.ports.blobs,
      buckets: stack.ports.buckets,
    });
    expect(await documents.delete(ref, pdf.id!)).toEqual({
      id: pdf.id,
      deleted: true,
      blobs_deleted: 1,
      blobs_pending: 0,
    });
    await expect(
      s3.client.send(new HeadObjectCommand({ Bucket: customer, Key: `library/end-users/alice/${pdf.id}` })),
    ).rejects.toMatchObject({ name: 'NotFound' });
  });
});

describe("the sweeper Lambda and the deletes owed to callers' buckets", () => {
  it('deletes what is due in the bucket it names, drops what belongs to a bucket no longer registered, and leaves what is not due', async () => {
    const stack = await awsStack({ callerBuckets: true });
    const buckets = stack.ports.buckets!;
    const customer = `owed-${Date.now()}`;
    await s3.client.send(new CreateBucketCommand({ Bucket: customer }));
    const endpoint = await s3.client.config.endpoint!().then((e) => `${e.protocol}//${e.hostname}:${e.port}`);
    await new BucketService({ buckets, blobs: stack.ports.blobs, clock: systemClock() }).register(ref.tenantId, {
      provider: 's3',
      bucket: customer,
      region: 'us-east-1',
      endpoint,
      prefix: 'library/',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    const { location } = (await buckets.registrations.get(ref.tenantId))!;
    await s3.client.send(new PutObjectCommand({ Bucket: customer, Key: 'library/shared/owed', Body: 'left behind' }));
    await s3.client.send(new PutObjectCommand({ Bucket: customer, Key: 'library/shared/later', Body: 'not yet' }));
    const past = formatTimestamp(new Date(Date.now() - 60_000));
    const future = formatTimestamp(new Date(Date.now() + 3600_000));
    await buckets.pendingDeletes.add([
      {
        tenantId: ref.tenantId,
        blobKey: bucketBlobKey(location, 'library/shared/owed'),
        since: past,
        nextAttemptAt: past,
      },
      {
        tenantId: ref.tenantId,
        blobKey: bucketBlobKey('another-bucket', 'library/shared/elsewhere'),
        since: past,
        nextAttemptAt: past,
      },
      {
        tenantId: ref.tenantId,
        blobKey: bucketBlobKey(location, 'library/shared/later'),
        since: past,
        nextAttemptAt: future,
      },
    ]);
    const worker = new IngestWorker({
      documents: stack.ports.documents,
      index: stack.ports.index,
      clock: systemClock(),
      blobs: unwired('blobs'),
      embedder: unwired('embedder'),
      extractor: unwired('extractor'),
      spend: unwired('spend'),
    });
    const bucketDeletes = new BucketDeleteRetry({
      buckets,
      blobs: documentBlobs({ blobs: unwired('blobs'), buckets }),
      clock: systemClock(),
    });
    const result = await sweeperHandler({
      documents: stack.ports.documents,
      worker,
      staleAfterSeconds: 3600,
      bucketDeletes,
    })();
    expect(result).toEqual({ failed: 0, errors: 0, bucketDeletes: { deleted: 1, dropped: 1, stillPending: 0 } });
    await expect(
      s3.client.send(new HeadObjectCommand({ Bucket: customer, Key: 'library/shared/owed' })),
    ).rejects.toMatchObject({ name: 'NotFound' });
    await expect(
      s3.client.send(new HeadObjectCommand({ Bucket: customer, Key: 'library/shared/later' })),
    ).resolves.toBeDefined();
    expect(await buckets.pendingDeletes.count(ref.tenantId)).toBe(1);
  });

  it('asks for another batch only while batches come back full', async () => {
    const reports = [
      { deleted: 100, dropped: 0, stillPending: 0 },
      { deleted: 60, dropped: 30, stillPending: 10 },
      { deleted: 3, dropped: 0, stillPending: 0 },
    ];
    let calls = 0;
    const bucketDeletes = {
      sweep: async (limit = 100) => {
        expect(limit).toBe(100);
        return reports[calls++]!;
      },
    };
    const result = await sweeperHandler({
      documents: { listStaleProcessing: async () => [] },
      worker: { fail: async () => ({ outcome: 'failed' }) } as never,
      staleAfterSeconds: 3600,
      bucketDeletes,
    })();
    expect(result.bucketDeletes).toEqual({ deleted: 163, dropped: 30, stillPending: 10 });
    expect(calls).toBe(3);
  });
});
