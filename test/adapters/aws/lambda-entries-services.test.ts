import { describe, expect, it } from 'vitest';
import { captureWithIngest, unwired, UnwiredPortError } from '../../../lambdas/wiring/aws/services.js';
import { buildServices } from '../../../lambdas/core/services.js';
import type { IngestJob, IngestQueue, TextExtractor } from '../../../lambdas/ports.js';
import { coreHarness } from '../../support/core-harness.js';

/**
 * What the Lambda entries build their services with (lambdas/wiring/aws/services.ts):
 * capture and the queued ingest charge usage exactly as the core's
 * buildServices composes them, and a port an entry leaves unwired fails
 * loudly, naming itself, the moment a use case touches it.
 */
const ref = { tenantId: 'ten_a', endUserId: null };
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('the quarterly report says revenue grew\n')]);
const TEXT = Buffer.from('the meeting moved to thursday afternoon\n');

class RecordingQueue implements IngestQueue {
  jobs: IngestJob[] = [];
  async enqueue(job: IngestJob) {
    this.jobs.push(job);
  }
}
const pdfishExtractor: TextExtractor = {
  async extract({ bytes, declaredContentType }) {
    const text = Buffer.from(bytes).toString('utf8').replace(/^%PDF-1\.7\n/, '');
    return { text, kind: 'file', contentType: declaredContentType, pageCount: 1, ocrPages: 0 };
  },
};

/** An inline capture, a queued one and its completion by the worker; then the tenant's usage. */
async function scenario(build: 'aws' | 'core') {
  const { ports } = coreHarness({ extractor: pdfishExtractor });
  const queue = new RecordingQueue();
  const settings = { queue, inlineMaxBytes: 1024 * 1024 };
  const services = build === 'aws' ? captureWithIngest(ports, settings) : (buildServices(ports, { ingest: settings }) as Required<ReturnType<typeof buildServices>>);
  const inline = await services.capture.capture(ref, { contentBase64: TEXT.toString('base64'), filename: 'notes.txt', contentType: 'text/plain' });
  const queued = await services.capture.capture(ref, { contentBase64: PDF.toString('base64'), filename: 'report.pdf', contentType: 'application/pdf' });
  const completed = await services.ingest.complete(queue.jobs[0]!, { finalAttempt: false });
  const usage = await ports.usage.days('ten_a', '2000-01-01', '2999-12-31');
  return { statuses: [inline.status, queued.status, completed.outcome] as string[], jobs: queue.jobs.length, usage: usage.map(({ date: _date, ...counts }) => counts) };
}

describe('the AWS entries’ service composition', () => {
  it('captureWithIngest charges inline and queued captures as buildServices does', async () => {
    const aws = await scenario('aws');
    expect(aws.statuses).toEqual(['created', 'created', 'ready']);
    expect(aws.jobs).toBe(1);
    expect(aws.usage).toHaveLength(1);
    expect(aws).toEqual(await scenario('core'));
  });

  it('an unwired port throws UnwiredPortError naming it on first use, and is not mistaken for a promise', async () => {
    const index = unwired<{ remove(): Promise<void> }>('index');
    expect(() => index.remove()).toThrow(UnwiredPortError);
    expect(() => index.remove()).toThrow(/the index port is not wired/);
    await expect(Promise.resolve(index)).resolves.toBe(index);
  });
});
