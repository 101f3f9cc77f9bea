import * as z from 'zod/mini';
import { EndUserId, pathSegment } from '../../http/schemas.js';
import { CALLER_BLOBS } from '../access.js';
import type { RouteContract } from '../route-contract.js';

/** API Gateway passes a path parameter still URL-encoded; it is decoded once, then checked. */
const EndUserPath = z.object({ id: z.pipe(pathSegment, EndUserId) });

export const contract = {
  name: 'end-user-delete',
  method: 'DELETE',
  path: '/v1/end-users/{id}',
  auth: true,
  summary: "Erase an end user's library",
  request: { path: EndUserPath },
  access: {
    documents: 'write',
    blobs: { delete: true },
    search: 'write',
    callerBuckets: CALLER_BLOBS,
    endUserLogKey: true,
  },
} as const satisfies RouteContract;
