import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { CaptureRejected } from '../../core/errors.js';
import type { DocumentOcrJobs, PdfOcr } from '../extraction/ocr-ports.js';
import { callAws } from './errors.js';

export interface TextractPdfOcrOptions {
  jobs: DocumentOcrJobs;
  s3: S3Client;
  /** A bucket Textract may read: the PDF is staged there for the job, then deleted. */
  bucket: string;
  prefix?: string;
  pollIntervalMs?: number;
}

/**
 * Whole-PDF OCR with Textract's asynchronous API, for the ingest worker: the
 * PDF is staged in the service's bucket (the caller's own bucket may be R2,
 * which Textract cannot read), the job is started with the file's hash as its
 * idempotency token (a retried ingest reuses the job), and polled until done
 * or until the extraction budget's signal fires. The staged copy is always deleted.
 */
export class TextractPdfOcr implements PdfOcr {
  constructor(private readonly options: TextractPdfOcrOptions) {}

  async readPdf(pdf: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<{ pages: string[] }> {
    const { jobs, s3, bucket, prefix = 'textract-staging/', pollIntervalMs = 2_000 } = this.options;
    const hash = createHash('sha256').update(pdf).digest('hex');
    const key = `${prefix}${hash}.pdf`;
    await callAws('textract staging put', () =>
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: pdf, ContentType: 'application/pdf' })),
    );
    try {
      const jobId = await jobs.start({ bucket, key }, { clientToken: hash.slice(0, 64) });
      for (;;) {
        const result = await jobs.result(jobId);
        if (result.status === 'succeeded') return { pages: result.pages };
        if (result.status === 'failed')
          throw new CaptureRejected('extraction_failed', `the OCR service could not read the PDF: ${result.message}`);
        await sleep(pollIntervalMs, undefined, { signal: options.signal });
      }
    } finally {
      await callAws('textract staging delete', () =>
        s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })),
      ).catch(() => undefined);
    }
  }
}
