import { IdPath, LibraryQuery } from '../../http/schemas.js';
import { CALLER_BLOBS } from '../access.js';
import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'document-delete',
  method: 'DELETE',
  path: '/v1/documents/{id}',
  auth: true,
  summary: 'Delete a document everywhere',
  request: { query: LibraryQuery, path: IdPath },
  access: {
    documents: 'write',
    blobs: { delete: true },
    search: 'write',
    callerBuckets: CALLER_BLOBS,
    endUserLogKey: true,
  },
} as const satisfies RouteContract;
