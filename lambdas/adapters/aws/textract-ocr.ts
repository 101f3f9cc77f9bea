import {
  type Block,
  DetectDocumentTextCommand,
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  type TextractClient,
} from '@aws-sdk/client-textract';
import { BackendUnavailableError, CaptureRejected } from '../../core/errors.js';
import type {
  DocumentOcrJobResult,
  DocumentOcrJobs,
  OcrEngine,
  OcrImage,
  OcrResult,
  StoredObjectRef,
} from '../extraction/ocr-ports.js';
import { isTransientAwsError } from './errors.js';

/** Textract's own names for "too many requests right now" besides the SDK-wide ones. */
const TEXTRACT_THROTTLES = new Set([
  'ProvisionedThroughputExceededException',
  'LimitExceededException',
  'ServiceQuotaExceededException',
]);
/** Textract refusing the document itself: the file, not the service, is at fault. */
const BAD_DOCUMENT = new Set(['BadDocumentException', 'UnsupportedDocumentException', 'InvalidParameterException']);

export interface TextractOcrOptions {
  /** SNS topic and role Textract publishes job completion to (the ingest queue subscribes); optional for polling. */
  notificationChannel?: { snsTopicArn: string; roleArn: string };
}

/**
 * OCR on AWS. `recognize` reads one page image with DetectDocumentText
 * (synchronous, PNG up to 10 MB); `start`/`result` read a whole multi-page
 * PDF stored in S3 with the asynchronous StartDocumentTextDetection /
 * GetDocumentTextDetection API. Throttles become BackendUnavailableError.
 */
export class TextractOcr implements OcrEngine, DocumentOcrJobs {
  readonly name = 'textract';

  constructor(
    private readonly client: TextractClient,
    private readonly options: TextractOcrOptions = {},
  ) {}

  async recognize(image: OcrImage, options: { signal?: AbortSignal } = {}): Promise<OcrResult> {
    const response = await this.call('DetectDocumentText', () =>
      this.client.send(new DetectDocumentTextCommand({ Document: { Bytes: image.png } }), {
        abortSignal: options.signal,
      }),
    );
    const lines = linesOf(response.Blocks ?? []);
    const confidences = lines.map((b) => b.Confidence).filter((c): c is number => typeof c === 'number');
    return {
      text: lines.map((b) => b.Text ?? '').join('\n'),
      confidence: confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length / 100 : null,
    };
  }

  async start(document: StoredObjectRef, options: { clientToken?: string } = {}): Promise<string> {
    const { snsTopicArn, roleArn } = this.options.notificationChannel ?? {};
    const response = await this.call('StartDocumentTextDetection', () =>
      this.client.send(
        new StartDocumentTextDetectionCommand({
          DocumentLocation: { S3Object: { Bucket: document.bucket, Name: document.key } },
          ClientRequestToken: options.clientToken,
          NotificationChannel: snsTopicArn && roleArn ? { SNSTopicArn: snsTopicArn, RoleArn: roleArn } : undefined,
        }),
      ),
    );
    if (!response.JobId) throw new Error('Textract started a job without a JobId');
    return response.JobId;
  }

  /** Collects every result page of a finished job (NextToken), lines grouped by document page. */
  async result(jobId: string): Promise<DocumentOcrJobResult> {
    const pages: string[][] = [];
    let nextToken: string | undefined;
    do {
      const response = await this.call('GetDocumentTextDetection', () =>
        this.client.send(new GetDocumentTextDetectionCommand({ JobId: jobId, NextToken: nextToken, MaxResults: 1000 })),
      );
      if (response.JobStatus === 'IN_PROGRESS') return { status: 'in_progress' };
      if (response.JobStatus === 'FAILED')
        return { status: 'failed', message: response.StatusMessage ?? 'Textract could not read the document' };
      const pageCount = response.DocumentMetadata?.Pages ?? 0;
      while (pages.length < pageCount) pages.push([]);
      for (const block of linesOf(response.Blocks ?? [])) {
        const page = (block.Page ?? 1) - 1;
        while (pages.length <= page) pages.push([]);
        pages[page]!.push(block.Text ?? '');
      }
      nextToken = response.NextToken;
    } while (nextToken);
    return { status: 'succeeded', pages: pages.map((lines) => lines.join('\n')) };
  }

  private async call<T>(what: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const name = (error as { name?: string } | null)?.name ?? '';
      if (TEXTRACT_THROTTLES.has(name) || isTransientAwsError(error)) {
        throw new BackendUnavailableError(`Textract ${what}: ${name || 'unavailable'}`, 2, { cause: error });
      }
      if (BAD_DOCUMENT.has(name))
        throw new CaptureRejected('extraction_failed', 'the OCR service could not read the page');
      if (name === 'DocumentTooLargeException')
        throw new CaptureRejected('too_large', 'the page is too large for the OCR service');
      throw error;
    }
  }
}

/** LINE blocks in reading order (Textract returns them in order, page by page). */
function linesOf(blocks: readonly Block[]): Block[] {
  return blocks.filter((block) => block.BlockType === 'LINE');
}
