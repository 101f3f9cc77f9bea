import { IdPath, LibraryQuery } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'document-get',
  method: 'GET',
  path: '/v1/documents/{id}',
  auth: true,
  summary: 'One document',
  request: { query: LibraryQuery, path: IdPath },
  access: { documents: 'read', endUserLogKey: true },
} as const satisfies RouteContract;
