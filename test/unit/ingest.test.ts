import { describe, expect, it } from 'vitest';
import { buildServices } from '../../lambdas/core/services.js';
import { BackendUnavailableError, CaptureRejected } from '../../lambdas/core/errors.js';
import { isSlowWork } from '../../lambdas/core/ingest.js';
import type { IngestJob, IngestQueue, TextExtractor } from '../../lambdas/ports.js';
import { coreHarness } from '../support/core-harness.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('the quarterly report says revenue grew\n')]);
const ref = { tenantId: 'ten_a', endUserId: 'alice' };

class RecordingQueue implements IngestQueue {
  jobs: IngestJob[] = [];
  failing = false;
  async enqueue(job: IngestJob) {
    if (this.failing) throw new BackendUnavailableError('queue down');
    this.jobs.push(job);
  }
}

/** Reads the text after the PDF signature line, so the test drives the queued path without a PDF parser. */
const pdfishExtractor = (fail?: () => Error): TextExtractor => ({
  async extract({ bytes }) {
    if (fail) throw fail();
    const text = Buffer.from(bytes).toString('utf8').split('\n').slice(1).join('\n');
    return { text, kind: 'file', contentType: 'application/pdf', pageCount: 1, ocrPages: 0 };
  },
});

function harness(extractor = pdfishExtractor()) {
  const queue = new RecordingQueue();
  const { ports } = coreHarness({ extractor });
  const services = buildServices(ports, { ingest: { queue, inlineMaxBytes: 1024 * 1024 } });
  return { ports, services, queue };
}

const capturePdf = (services: ReturnType<typeof harness>['services']) =>
  services.capture.capture(ref, { contentBase64: PDF.toString('base64'), filename: 'report.pdf', contentType: 'application/pdf' });

describe('queued ingest (the AWS capture path for slow work)', () => {
  it('decides slow work by the bytes and the size, never by the declared type', () => {
    expect(isSlowWork(PDF, 1000)).toBe(true);
    expect(isSlowWork(Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2]), 1000)).toBe(true);
    expect(isSlowWork(Buffer.from('plain text that claims nothing'), 1000)).toBe(false);
    expect(isSlowWork(Buffer.alloc(2000, 0x61), 1000)).toBe(true);
  });

  it('returns created at once with the document processing, then the worker makes it ready and searchable', async () => {
    const { services, queue, ports } = harness();
    const receipt = await capturePdf(services);
    expect(receipt).toMatchObject({ ok: true, status: 'created' });
    expect(queue.jobs).toEqual([{ tenantId: 'ten_a', endUserId: 'alice', documentId: receipt.id }]);
    expect((await services.documents.get(ref, receipt.id!)).status).toBe('processing');
    expect((await services.search.search(ref, { q: 'quarterly revenue', limit: 10 })).items).toHaveLength(0);

    const outcome = await services.ingest!.complete(queue.jobs[0]!, { finalAttempt: false });
    expect(outcome).toEqual({ outcome: 'ready', documentId: receipt.id });
    const doc = await services.documents.get(ref, receipt.id!);
    // This store has no finishIngest, so only the status moves (the DynamoDB store records the rest).
    expect(doc).toMatchObject({ status: 'ready', content_type: 'application/pdf' });
    const found = await services.search.search(ref, { q: 'quarterly revenue', limit: 10 });
    expect(found.items.map((r) => r.id)).toEqual([receipt.id]);
    // A repeated job (SQS delivers at least once) changes nothing.
    expect(await services.ingest!.complete(queue.jobs[0]!, { finalAttempt: false })).toEqual({ outcome: 'skipped', documentId: receipt.id });
    expect(await ports.usage.days('ten_a', '2000-01-01', '2999-12-31')).toHaveLength(1);
  });

  it('dedups a second capture of the same file while it is still processing', async () => {
    const { services, queue } = harness();
    const [a, b] = await Promise.all([capturePdf(services), capturePdf(services)]);
    expect([a.status, b.status].sort()).toEqual(['created', 'deduped']);
    expect(a.id).toBe(b.id);
    expect(queue.jobs).toHaveLength(1);
  });

  it('leaves nothing behind when the queue is down, and the retry is created', async () => {
    const { services, queue, ports } = harness();
    queue.failing = true;
    const rejected = await capturePdf(services);
    expect(rejected).toMatchObject({ status: 'rejected', reject_code: 'backend_unavailable', retryable: true });
    expect((await services.documents.list(ref, { limit: 10 })).items).toHaveLength(0);
    expect(await ports.documents.findBySha256(ref, (await import('node:crypto')).createHash('sha256').update(PDF).digest('hex'))).toBeNull();
    queue.failing = false;
    expect((await capturePdf(services)).status).toBe('created');
  });

  it('marks an unreadable file failed at once, and a backend failure failed only on the final attempt', async () => {
    const unreadable = harness(pdfishExtractor(() => new CaptureRejected('encrypted_document', 'password-protected')));
    const r1 = await capturePdf(unreadable.services);
    expect(await unreadable.services.ingest!.complete(unreadable.queue.jobs[0]!, { finalAttempt: false })).toMatchObject({ outcome: 'failed' });
    expect((await unreadable.services.documents.get(ref, r1.id!)).status).toBe('failed');

    const flaky = harness(pdfishExtractor(() => new BackendUnavailableError('ocr throttled')));
    const r2 = await capturePdf(flaky.services);
    await expect(flaky.services.ingest!.complete(flaky.queue.jobs[0]!, { finalAttempt: false })).rejects.toThrow(BackendUnavailableError);
    expect((await flaky.services.documents.get(ref, r2.id!)).status).toBe('processing');
    expect(await flaky.services.ingest!.complete(flaky.queue.jobs[0]!, { finalAttempt: true })).toMatchObject({ outcome: 'failed' });
    expect((await flaky.services.documents.get(ref, r2.id!)).status).toBe('failed');
  });

  it('keeps text pushes and small text files inline', async () => {
    const { services, queue } = harness();
    const receipt = await services.capture.capture(ref, { text: 'inline note' });
    expect(receipt.status).toBe('created');
    expect(queue.jobs).toHaveLength(0);
    expect((await services.documents.get(ref, receipt.id!)).status).toBe('ready');
  });

  it('recovers what was left processing before a point in time, so the payload can be captured again', async () => {
    const { services, queue, ports } = harness();
    const receipt = await capturePdf(services);
    expect(queue.jobs).toHaveLength(1);
    expect(await services.ingest!.recoverStale('2000-01-01T00:00:00.000000')).toBe(0);
    expect(await services.ingest!.recoverStale('9999-01-01T00:00:00.000000')).toBe(1);
    expect(await ports.documents.get(ref, receipt.id!)).toBeNull();
    expect(await ports.blobs.get(`blobs/${ref.tenantId}/${receipt.id}`)).toBeNull();
    expect((await capturePdf(services)).status).toBe('created');
  });

  it('the sweeper asks to recover what is older than its threshold', async () => {
    const { createHandler } = await import('../../lambdas/workers/aws-sweeper/handler.js');
    const seen: string[] = [];
    const handler = createHandler({ ingest: { recoverStale: async (olderThan) => (seen.push(olderThan), 2) }, staleAfterSeconds: 3600, now: () => new Date('2026-11-22T10:00:00Z') });
    expect(await handler()).toEqual({ rolledBack: 2 });
    expect(seen).toEqual(['2026-11-22T09:00:00.000000']);
  });
});
