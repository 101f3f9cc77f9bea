import { documentStore } from '../../aws/dynamo.js';
import { searchIndex } from '../../aws/opensearch.js';
import { blobStore } from '../../aws/s3.js';
import { awsServices } from '../../aws/services.js';
import { createHandler } from './handler.js';

/** Lambda entry: removal everywhere (index entries, bytes, records). */
export const handler = createHandler(awsServices({ documents: documentStore(), index: searchIndex(), blobs: blobStore() }));
