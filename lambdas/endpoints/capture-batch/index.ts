import { awsCapturePorts } from '../../wiring/aws/capture-ports.js';
import { awsConfig } from '../../wiring/aws/config.js';
import { InlineTextExtractor } from '../../wiring/aws/inline-extractor.js';
import { captureWithIngest } from '../../wiring/aws/services.js';
import { ingestQueue } from '../../wiring/aws/sqs.js';
import { createHandler } from './handler.js';

/** Lambda entry (one receipt per item): text formats read inline, slow work queued for the ingest function; every accepted capture charged. */
export const handler = createHandler(
  captureWithIngest(awsCapturePorts(new InlineTextExtractor()), { queue: ingestQueue(), inlineMaxBytes: awsConfig().inlineMaxBytes }),
);
