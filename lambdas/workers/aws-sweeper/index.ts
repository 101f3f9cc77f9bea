import { IngestService } from '../../core/ingest.js';
import { systemClock } from '../../core/dates.js';
import { awsConfig, ConfigError, ENV } from '../../wiring/aws/config.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { unwired } from '../../wiring/aws/services.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the sweeper (EventBridge schedule): rolls back abandoned
 * captures (index entries, bytes, records). It extracts, embeds and enqueues
 * nothing, so those ports are unwired.
 */
const config = awsConfig();
const staleAfterSeconds = Number(process.env[ENV.staleAfterSeconds]);
if (!Number.isInteger(staleAfterSeconds) || staleAfterSeconds < 60) {
  throw new ConfigError(`${ENV.staleAfterSeconds} must be a whole number of seconds, at least 60`);
}
const ingest = new IngestService(
  { documents: documentStore(), blobs: blobStore(), index: searchIndex(), embedder: unwired('embedder'), extractor: unwired('extractor'), clock: systemClock() },
  { queue: unwired('ingestQueue'), inlineMaxBytes: config.inlineMaxBytes },
);

export const handler = createHandler({ ingest, staleAfterSeconds });
