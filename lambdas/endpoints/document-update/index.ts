import { DocumentService } from '../../core/documents.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { createHandler } from './handler.js';

/** Lambda entry: changes a document's title, source_ref or metadata in its index entries, then its record. */
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      documents: new DocumentService({ documents: documentStore(), index: searchIndex(), blobs: blobStore() }),
    }),
  ),
);
