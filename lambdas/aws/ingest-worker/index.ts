import { TextractClient } from '@aws-sdk/client-textract';
import { SqsIngestQueue } from '../../adapters/aws/sqs-ingest-queue.js';
import { TextractOcr } from '../../adapters/aws/textract-ocr.js';
import { buildServices } from '../../core/services.js';
import { FileExtractor } from '../../extraction/extractor.js';
import { createAwsClients } from '../clients.js';
import { ConfigError, ENV, readAwsConfig } from '../config.js';
import { tracer } from '../observability.js';
import { buildAwsPorts } from '../ports.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the ingest function: the full extraction pipeline (PDF
 * text layer, DOCX, images) with Textract for OCR, behind the same ports.
 */
const config = readAwsConfig();
const maxReceiveCount = Number(process.env[ENV.ingestMaxReceiveCount]);
if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1) {
  throw new ConfigError(`${ENV.ingestMaxReceiveCount} must be a whole number of at least 1`);
}
const clients = createAwsClients(config);
const textract = tracer.captureAWSv3Client(new TextractClient({ region: config.region, maxAttempts: 3 }));
const ports = buildAwsPorts(config, clients, new FileExtractor({ ocr: new TextractOcr(textract) }));
const services = buildServices(ports, {
  ingest: { queue: new SqsIngestQueue(clients.sqs, config.ingestQueueUrl), inlineMaxBytes: config.inlineMaxBytes },
});

export const handler = createHandler({ ingest: services.ingest!, maxReceiveCount });
