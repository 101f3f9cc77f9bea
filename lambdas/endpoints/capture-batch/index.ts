import { awsCapturePorts } from '../../wiring/aws/capture-ports.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { captureExtractor } from '../../wiring/aws/extractors.js';
import { countCapture, instrumented } from '../../wiring/aws/observability.js';
import { ingestQueue } from '../../wiring/aws/sqs.js';
import { buildCaptureServices } from '../../wiring/capture-services.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry (one receipt per item): text formats read inline and indexed
 * by words in the request; the embedding of every item, and files to
 * extract, go to the ingest function over SQS; every accepted capture
 * charged. Receipts (and, through the ports, spend) are counted as metrics.
 */
const { capture } = buildCaptureServices(awsCapturePorts(captureExtractor()), ingestQueue());
export const handler = instrumented(withEndUserLogKey(createHandler({ capture, onReceipt: countCapture })));
