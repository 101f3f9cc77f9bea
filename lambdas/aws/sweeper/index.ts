import { IngestService } from '../../core/ingest.js';
import { systemClock } from '../../core/dates.js';
import { awsConfig, ConfigError, ENV } from '../config.js';
import { documentStore } from '../dynamo.js';
import { searchIndex } from '../opensearch.js';
import { blobStore } from '../s3.js';
import { unwired } from '../services.js';
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
