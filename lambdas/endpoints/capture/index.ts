import { embedder } from '../../aws/bedrock.js';
import { awsConfig } from '../../aws/config.js';
import { documentStore, usageLedger } from '../../aws/dynamo.js';
import { InlineTextExtractor } from '../../aws/inline-extractor.js';
import { searchIndex } from '../../aws/opensearch.js';
import { blobStore } from '../../aws/s3.js';
import { captureWithIngest } from '../../aws/services.js';
import { ingestQueue } from '../../aws/sqs.js';
import { tokenCounter } from '../../aws/tokens.js';
import { systemClock } from '../../core/dates.js';
import { createHandler } from './handler.js';

/** Lambda entry: text formats read inline, slow work queued for the ingest function; every accepted capture charged. */
export const handler = createHandler(
  captureWithIngest(
    {
      documents: documentStore(), blobs: blobStore(), index: searchIndex(), embedder: embedder(), extractor: new InlineTextExtractor(),
      clock: systemClock(), usage: usageLedger(), tokens: tokenCounter(),
    },
    { queue: ingestQueue(), inlineMaxBytes: awsConfig().inlineMaxBytes },
  ),
);
