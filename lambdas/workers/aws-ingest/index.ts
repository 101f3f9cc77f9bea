import { awsCapturePorts } from '../../wiring/aws/capture-ports.js';
import { awsConfig, ConfigError, ENV } from '../../wiring/aws/config.js';
import { captureWithIngest, unwired } from '../../wiring/aws/services.js';
import { ingestExtractor } from '../../wiring/aws/textract.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the ingest function: the full extraction pipeline (PDF
 * text layer, DOCX, images) with Textract for OCR, behind the same ports.
 * Completing a job enqueues nothing, so the queue port is unwired (no SQS
 * client at cold start, and the role has no send grant).
 */
const config = awsConfig();
const maxReceiveCount = Number(process.env[ENV.ingestMaxReceiveCount]);
if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1) {
  throw new ConfigError(`${ENV.ingestMaxReceiveCount} must be a whole number of at least 1`);
}
const { ingest } = captureWithIngest(awsCapturePorts(ingestExtractor()), { queue: unwired('ingestQueue'), inlineMaxBytes: config.inlineMaxBytes });

export const handler = createHandler({ ingest, maxReceiveCount });
