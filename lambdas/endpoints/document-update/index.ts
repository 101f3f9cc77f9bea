import { documentStore } from '../../wiring/aws/dynamo.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { DocumentService } from '../../core/documents.js';
import { createHandler } from './handler.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';

/** Lambda entry: changes a document's title, source_ref or metadata in its index entries, then its record. */
export const handler = instrumented(withEndUserLogKey(createHandler({ documents: new DocumentService({ documents: documentStore(), index: searchIndex(), blobs: blobStore() }) })));
