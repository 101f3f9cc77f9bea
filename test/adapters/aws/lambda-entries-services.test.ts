import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnwiredPortError, unwired } from '../../../lambdas/wiring/aws/unwired-port.js';

/**
 * What the Lambda entries build their services with: capture and the ingest
 * worker composed by the core's buildCaptureServices (as the local stack's
 * buildServices composes them), on the SQS queue and the configured inline
 * size; and a port an entry leaves unwired fails loudly, naming itself, the
 * moment a use case touches it.
 */
const source = (path: string) => readFileSync(new URL(`../../../lambdas/${path}`, import.meta.url), 'utf8');

describe('the AWS entries’ service composition', () => {
  it('capture and capture-batch compose capture on the SQS queue, with the text extractor of the configured inline size', () => {
    for (const entry of ['endpoints/capture/index.ts', 'endpoints/capture-batch/index.ts']) {
      const text = source(entry);
      expect(text, entry).toMatch(/buildCaptureServices\(awsCapturePorts\(captureExtractor\(\)\), ingestQueue\(\)\)/);
    }
  });

  it('the ingest worker runs the core IngestWorker on the full pipeline, bounded by its configured concurrency, the queue unwired', () => {
    const text = source('workers/aws-ingest/index.ts');
    expect(text).toMatch(/buildCaptureServices\(awsCapturePorts\(ingestExtractor\(\)\), unwired\('ingestQueue'\)\)/);
    expect(text).toMatch(/readWholeNumber\(ENV\.ingestConcurrency/);
    expect(text).toMatch(/createHandler\(\{ worker, references: documentStore\(\), maxReceiveCount, concurrency \}\)/);
  });

  it('an unwired port throws UnwiredPortError naming it on first use, and is not mistaken for a promise', async () => {
    const index = unwired<{ remove(): Promise<void> }>('index');
    expect(() => index.remove()).toThrow(UnwiredPortError);
    expect(() => index.remove()).toThrow(/the index port is not wired/);
    await expect(Promise.resolve(index)).resolves.toBe(index);
    expect(() => unwired<{ recordEmbedding(): void }>('spend').recordEmbedding()).toThrow(
      /the spend port is not wired/,
    );
  });
});
