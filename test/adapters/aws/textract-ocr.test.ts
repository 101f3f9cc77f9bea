import {
  AccessDeniedException,
  BadDocumentException,
  type Block,
  DetectDocumentTextCommand,
  GetDocumentTextDetectionCommand,
  LimitExceededException,
  ProvisionedThroughputExceededException,
  StartDocumentTextDetectionCommand,
  TextractClient,
  ThrottlingException,
} from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { TextractOcr } from '../../../lambdas/adapters/aws/textract-ocr.js';
import { BackendUnavailableError, CaptureRejected } from '../../../lambdas/core/errors.js';

const textract = mockClient(TextractClient);
beforeEach(() => textract.reset());

const ocr = (options?: ConstructorParameters<typeof TextractOcr>[1]) =>
  new TextractOcr(new TextractClient({ region: 'eu-west-1' }), options);
const image = { png: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), width: 10, height: 10 };
const line = (text: string, page = 1, confidence = 99): Block => ({
  BlockType: 'LINE',
  Text: text,
  Page: page,
  Confidence: confidence,
});
const word = (text: string, page = 1): Block => ({ BlockType: 'WORD', Text: text, Page: page });
const meta = { $metadata: {} };

describe('TextractOcr.recognize (DetectDocumentText)', () => {
  it('sends the page image bytes and returns its LINE blocks as lines', async () => {
    textract.on(DetectDocumentTextCommand).resolves({
      Blocks: [{ BlockType: 'PAGE' }, line('Invoice 4471', 1, 98), word('Invoice'), line('Paid on March 3rd', 1, 90)],
    });
    const result = await ocr().recognize(image);
    expect(result.text).toBe('Invoice 4471\nPaid on March 3rd');
    expect(result.confidence).toBeCloseTo(0.94);
    const sent = textract.commandCalls(DetectDocumentTextCommand)[0]!.args[0].input;
    expect(sent.Document?.Bytes).toEqual(image.png);
  });

  it.each([
    ['ThrottlingException', () => new ThrottlingException({ message: 'slow down', $metadata: {} })],
    [
      'ProvisionedThroughputExceededException',
      () => new ProvisionedThroughputExceededException({ message: 'over', $metadata: {} }),
    ],
    ['LimitExceededException', () => new LimitExceededException({ message: 'too many jobs', $metadata: {} })],
  ])('turns %s into BackendUnavailableError (retryable)', async (_name, error) => {
    textract.on(DetectDocumentTextCommand).rejects(error());
    await expect(ocr().recognize(image)).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('turns a document Textract cannot read into extraction_failed', async () => {
    textract.on(DetectDocumentTextCommand).rejects(new BadDocumentException({ message: 'bad', $metadata: {} }));
    const error = await ocr()
      .recognize(image)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaptureRejected);
    expect((error as CaptureRejected).rejectCode).toBe('extraction_failed');
  });

  it('rethrows a misconfiguration as it is', async () => {
    textract.on(DetectDocumentTextCommand).rejects(new AccessDeniedException({ message: 'no', $metadata: {} }));
    await expect(ocr().recognize(image)).rejects.toBeInstanceOf(AccessDeniedException);
  });
});

describe('TextractOcr jobs (StartDocumentTextDetection / GetDocumentTextDetection)', () => {
  it('starts a job on the stored PDF with an idempotency token and the notification channel', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
    const jobs = ocr({
      notificationChannel: { snsTopicArn: 'arn:aws:sns:eu-west-1:1:textract', roleArn: 'arn:aws:iam::1:role/textract' },
    });
    expect(await jobs.start({ bucket: 'blobs', key: 'blobs/t1/file_1' }, { clientToken: 'file_1' })).toBe('job-1');
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)[0]!.args[0].input).toEqual({
      DocumentLocation: { S3Object: { Bucket: 'blobs', Name: 'blobs/t1/file_1' } },
      ClientRequestToken: 'file_1',
      NotificationChannel: { SNSTopicArn: 'arn:aws:sns:eu-west-1:1:textract', RoleArn: 'arn:aws:iam::1:role/textract' },
    });
  });

  it('reports a running job as in progress', async () => {
    textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'IN_PROGRESS' });
    expect(await ocr().result('job-1')).toEqual({ status: 'in_progress' });
  });

  it('reports a failed job with its message', async () => {
    textract
      .on(GetDocumentTextDetectionCommand)
      .resolves({ JobStatus: 'FAILED', StatusMessage: 'unsupported document' });
    expect(await ocr().result('job-1')).toEqual({ status: 'failed', message: 'unsupported document' });
  });

  it('follows NextToken and groups lines by page, keeping empty pages', async () => {
    textract
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-1', NextToken: undefined })
      .resolves({
        JobStatus: 'SUCCEEDED',
        DocumentMetadata: { Pages: 3 },
        Blocks: [line('Page one first'), word('Page'), line('Page one second')],
        NextToken: 't2',
        ...meta,
      })
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-1', NextToken: 't2' })
      .resolves({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 3 }, Blocks: [line('Page three only', 3)] });
    expect(await ocr().result('job-1')).toEqual({
      status: 'succeeded',
      pages: ['Page one first\nPage one second', '', 'Page three only'],
    });
    expect(textract.commandCalls(GetDocumentTextDetectionCommand)).toHaveLength(2);
  });

  it('turns throttling while polling into BackendUnavailableError', async () => {
    textract
      .on(GetDocumentTextDetectionCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'over', $metadata: {} }));
    await expect(ocr().result('job-1')).rejects.toBeInstanceOf(BackendUnavailableError);
  });
});
