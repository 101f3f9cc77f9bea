import { TextractClient } from '@aws-sdk/client-textract';
import { TextractOcr } from '../../adapters/aws/textract-ocr.js';
import { FileExtractor } from '../../extraction/extractor.js';
import { embedder } from '../bedrock.js';
import { awsConfig, ConfigError, ENV } from '../config.js';
import { documentStore, usageLedger } from '../dynamo.js';
import { tracer } from '../observability.js';
import { searchIndex } from '../opensearch.js';
import { blobStore } from '../s3.js';
import { sdkOptions } from '../sdk.js';
import { captureWithIngest } from '../services.js';
import { ingestQueue } from '../sqs.js';
import { tokenCounter } from '../tokens.js';
import { systemClock } from '../../core/dates.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the ingest function: the full extraction pipeline (PDF
 * text layer, DOCX, images) with Textract for OCR, behind the same ports.
 */
const config = awsConfig();
const maxReceiveCount = Number(process.env[ENV.ingestMaxReceiveCount]);
if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1) {
  throw new ConfigError(`${ENV.ingestMaxReceiveCount} must be a whole number of at least 1`);
}
const textract = tracer.captureAWSv3Client(new TextractClient(sdkOptions()));
const { ingest } = captureWithIngest(
  {
    documents: documentStore(), blobs: blobStore(), index: searchIndex(), embedder: embedder(),
    extractor: new FileExtractor({ ocr: new TextractOcr(textract) }), clock: systemClock(), usage: usageLedger(), tokens: tokenCounter(),
  },
  { queue: ingestQueue(), inlineMaxBytes: config.inlineMaxBytes },
);

export const handler = createHandler({ ingest, maxReceiveCount });
