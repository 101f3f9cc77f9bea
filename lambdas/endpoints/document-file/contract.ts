import { IdPath, LibraryQuery } from '../../http/schemas.js';
import { CALLER_BLOBS } from '../access.js';
import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'document-file',
  method: 'GET',
  path: '/v1/documents/{id}/file',
  auth: true,
  summary: "A document's file, as captured",
  request: { query: LibraryQuery, path: IdPath },
  // A text push's text from the index; a file by a URL presigned with this function's credentials (so s3:GetObject on
  // the blobs), or with the caller's keys or role session for their bucket: the table (a role's external id is read
  // by a put-if-absent; a failed reach marks the registration's health), the secret opened, the role assumed.
  access: {
    documents: 'read',
    search: 'read',
    blobs: { read: true },
    callerBuckets: CALLER_BLOBS,
    endUserLogKey: true,
  },
} as const satisfies RouteContract;
