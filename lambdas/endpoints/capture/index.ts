import { awsCapturePorts } from '../../wiring/aws/capture-ports.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { captureExtractor } from '../../wiring/aws/extractors.js';
import { countCapture, instrumented } from '../../wiring/aws/observability.js';
import { ingestQueue } from '../../wiring/aws/sqs.js';
import { buildCaptureServices } from '../../wiring/capture-services.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry: text formats read inline; a small single capture embedded in
 * the request, files to extract and large texts queued for the ingest
 * function (SQS); every accepted capture charged. Receipts (and, through the
 * ports, spend) are counted as metrics.
 */
const { capture } = buildCaptureServices(awsCapturePorts(captureExtractor()), ingestQueue());
export const handler = instrumented(withEndUserLogKey(createHandler({ capture, onReceipt: countCapture })));
