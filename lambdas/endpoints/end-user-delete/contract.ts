import * as z from 'zod/mini';
import { EndUserId } from '../../http/schemas.js';
import { CALLER_BLOBS } from '../access.js';
import type { RouteContract } from '../route-contract.js';

/** API Gateway passes a path parameter still URL-encoded; it is decoded once, then checked. */
const EndUserPath = z.object({
  id: z.pipe(
    z.pipe(
      z.string(),
      z.transform((raw: string, ctx) => {
        try {
          return decodeURIComponent(raw);
        } catch {
          ctx.issues.push({ code: 'custom', message: 'must be URL-encoded', input: raw });
          return z.NEVER;
        }
      }),
    ),
    EndUserId,
  ),
});

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
