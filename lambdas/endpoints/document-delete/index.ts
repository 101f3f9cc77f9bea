import { documentStore } from '../../wiring/aws/dynamo.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { callerBuckets } from '../../wiring/aws/buckets.js';
import { DocumentService } from '../../core/documents.js';
import { createHandler } from './handler.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';

/** Lambda entry: removes the document everywhere (index entries, bytes in the service's storage or the caller's bucket, record). */
export const handler = instrumented(withEndUserLogKey(createHandler({ documents: new DocumentService({ documents: documentStore(), index: searchIndex(), blobs: blobStore(), buckets: callerBuckets() }) })));
