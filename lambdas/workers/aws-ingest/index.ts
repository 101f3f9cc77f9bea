import { parseIngestMessage } from '../../adapters/aws/sqs-ingest-queue.js';
import { withInvocationLog } from '../../http/observability.js';
import { awsCapturePorts } from '../../wiring/aws/capture-ports.js';
import { ENV, readWholeNumber } from '../../wiring/aws/config.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { ingestExtractor } from '../../wiring/aws/extractors.js';
import { instrumented, observeIngestOutcomes, withQueueMetrics } from '../../wiring/aws/observability.js';
import { unwired } from '../../wiring/aws/unwired-port.js';
import { buildCaptureServices } from '../../wiring/capture-services.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the ingest function: the full extraction pipeline (PDF
 * text layer, DOCX, images) with Textract for OCR, and Bedrock embedding,
 * behind the same ports as capture. Finishing a job enqueues nothing, so the
 * queue port is unwired (no SQS client at cold start, and the role has no
 * send grant). Outcomes, queue age, retries, tokens and OCR pages are
 * counted as metrics.
 */
const maxReceiveCount = readWholeNumber(ENV.ingestMaxReceiveCount, { min: 1 });
const concurrency = readWholeNumber(ENV.ingestConcurrency, { min: 1, max: 16 });
const { worker } = buildCaptureServices(awsCapturePorts(ingestExtractor()), unwired('ingestQueue'));
observeIngestOutcomes(worker);

// Job bodies name an end user's library by a reference the documents table resolves (adapters/aws/sqs-ingest-queue.ts).
export const handler = instrumented(
  withInvocationLog(
    withQueueMetrics(
      createHandler({ worker, references: documentStore(), maxReceiveCount, concurrency }),
      parseIngestMessage,
    ),
  ),
);
