import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  TextractClient,
} from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { TextractOcr } from '../../../lambdas/adapters/aws/textract-ocr.js';
import { TextractPdfOcr } from '../../../lambdas/adapters/aws/textract-pdf-ocr.js';
import type { CaptureRejected } from '../../../lambdas/core/errors.js';

const textract = mockClient(TextractClient);
const s3 = mockClient(S3Client);
beforeEach(() => {
  textract.reset();
  s3.reset();
  s3.on(PutObjectCommand).resolves({});
  s3.on(DeleteObjectCommand).resolves({});
});

const reader = () =>
  new TextractPdfOcr({
    jobs: new TextractOcr(new TextractClient({ region: 'eu-west-1' })),
    s3: new S3Client({ region: 'eu-west-1' }),
    bucket: 'service-blobs',
    pollIntervalMs: 1,
  });
const pdf = Buffer.from('%PDF-1.7 scanned pages');

describe('TextractPdfOcr', () => {
  it('stages the PDF, starts one job, polls until it succeeds, and deletes the staged copy', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-9' });
    textract
      .on(GetDocumentTextDetectionCommand)
      .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
      .resolvesOnce({ JobStatus: 'IN_PROGRESS' })
      .resolves({
        JobStatus: 'SUCCEEDED',
        DocumentMetadata: { Pages: 2 },
        Blocks: [{ BlockType: 'LINE', Text: 'scanned two', Page: 2 }],
      });
    expect(await reader().readPdf(pdf)).toEqual({ pages: ['', 'scanned two'] });
    const put = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(put).toMatchObject({
      Bucket: 'service-blobs',
      Key: expect.stringMatching(/^textract-staging\/[0-9a-f]{64}\.pdf$/),
    });
    const start = textract.commandCalls(StartDocumentTextDetectionCommand)[0]!.args[0].input;
    expect(start.DocumentLocation?.S3Object).toEqual({ Bucket: 'service-blobs', Name: put.Key });
    expect(start.ClientRequestToken).toHaveLength(64);
    expect(textract.commandCalls(GetDocumentTextDetectionCommand)).toHaveLength(3);
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'service-blobs', Key: put.Key });
  });

  it('rejects a failed job as extraction_failed and still deletes the staged copy', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-9' });
    textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'bad pdf' });
    const error = await reader()
      .readPdf(pdf)
      .catch((e: unknown) => e);
    expect((error as CaptureRejected).rejectCode).toBe('extraction_failed');
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(1);
  });

  it('stops polling when the extraction budget signal fires', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-9' });
    textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'IN_PROGRESS' });
    const budget = new AbortController();
    setTimeout(() => budget.abort(new Error('budget spent')), 30);
    await expect(reader().readPdf(pdf, { signal: budget.signal })).rejects.toThrow();
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(1);
  });
});
