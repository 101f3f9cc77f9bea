import { documentStore, usageLedger } from '../../aws/dynamo.js';
import { embedder } from '../../aws/bedrock.js';
import { awsConfig } from '../../aws/config.js';
import { InlineTextExtractor } from '../../aws/inline-extractor.js';
import { searchIndex } from '../../aws/opensearch.js';
import { blobStore } from '../../aws/s3.js';
import { awsServices } from '../../aws/services.js';
import { ingestQueue } from '../../aws/sqs.js';
import { createHandler } from './handler.js';

/** Lambda entry (one receipt per item): text formats read inline, slow work queued for the ingest function; every accepted capture charged. */
export const handler = createHandler(
  awsServices(
    { documents: documentStore(), blobs: blobStore(), index: searchIndex(), embedder: embedder(), extractor: new InlineTextExtractor(), usage: usageLedger() },
    { ingest: { queue: ingestQueue(), inlineMaxBytes: awsConfig().inlineMaxBytes } },
  ),
);
