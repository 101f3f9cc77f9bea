import { systemClock } from '../../core/dates.js';
import { IngestWorker } from '../../core/ingest-worker.js';
import { ENV, readWholeNumber } from '../../wiring/aws/config.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { withInvocationLog } from '../../http/observability.js';
import { instrumented, observeAbandoned } from '../../wiring/aws/observability.js';
import { unwired } from '../../wiring/aws/services.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the sweeper (EventBridge schedule): settles `failed` what
 * was left `processing` (its index entries removed, its record and bytes
 * kept so the reason can be read). It reads no bytes, extracts, embeds,
 * charges and enqueues nothing, so those ports are unwired. Each document it
 * settles is counted (DocumentsAbandoned, alarmed).
 */
const staleAfterSeconds = readWholeNumber(ENV.staleAfterSeconds, { min: 60 });
const worker = observeAbandoned(new IngestWorker({
  documents: documentStore(), index: searchIndex(), clock: systemClock(),
  blobs: unwired('blobs'), embedder: unwired('embedder'), extractor: unwired('extractor'), spend: unwired('spend'),
}));

export const handler = instrumented(withInvocationLog(createHandler({ documents: documentStore(), worker, staleAfterSeconds })));
