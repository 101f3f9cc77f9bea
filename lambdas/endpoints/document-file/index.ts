import { DocumentReader, FILE_LINK_SECONDS } from '../../core/reading.js';
import { callerBuckets } from '../../wiring/aws/buckets.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry: the document's record (DynamoDB); a text push's text from the
 * search index; a file answered with a 302 to a URL presigned for
 * FILE_LINK_SECONDS, with the function's own credentials for the service's
 * bucket (s3:GetObject on the blobs), with the caller's keys or role session
 * for a file in their registered bucket. No binary body crosses API Gateway.
 */
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      reading: new DocumentReader({
        documents: documentStore(),
        index: searchIndex(),
        blobs: blobStore(),
        buckets: callerBuckets(),
        links: { expiresInSeconds: FILE_LINK_SECONDS },
      }),
    }),
  ),
);
