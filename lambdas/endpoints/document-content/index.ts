import { DocumentReader } from '../../core/reading.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { unwired } from '../../wiring/aws/unwired-port.js';
import { createHandler } from './handler.js';

/** Lambda entry: the document's record and the library's live generation (DynamoDB), then its text from the search index, as grep reads it. */
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      reading: new DocumentReader({ documents: documentStore(), index: searchIndex(), blobs: unwired('blobs') }),
    }),
  ),
);
