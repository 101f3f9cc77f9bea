import { EndUserService } from '../../core/end-users.js';
import { callerBuckets } from '../../wiring/aws/buckets.js';
import { conversationStore, documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { createHandler } from './handler.js';

/** Lambda entry: erases the end user's library everywhere (index entries, bytes in the service's storage or the caller's bucket, records, conversations). */
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      endUsers: new EndUserService({
        documents: documentStore(),
        index: searchIndex(),
        blobs: blobStore(),
        conversations: conversationStore(),
        buckets: callerBuckets(),
      }),
    }),
  ),
);
