import { DocumentService } from '../../core/documents.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { unwired } from '../../wiring/aws/unwired-port.js';
import { createHandler } from './handler.js';

/** Lambda entry: reads the document store only (the search index and the blobs are for delete). */
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      documents: new DocumentService({ documents: documentStore(), index: unwired('index'), blobs: unwired('blobs') }),
    }),
  ),
);
