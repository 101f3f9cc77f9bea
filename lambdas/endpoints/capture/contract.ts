import { CaptureItem } from '../../http/schemas.js';
import { CALLER_BLOBS } from '../access.js';
import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'capture',
  method: 'POST',
  path: '/v1/capture',
  auth: true,
  summary: 'Capture one text or file',
  // What the document shows; the handler checks the item on its receipt instead (handler.ts).
  request: { body: CaptureItem },
  access: {
    documents: 'write',
    usage: 'write',
    blobs: { put: true, delete: true },
    search: 'write',
    embed: true,
    ingestQueue: true,
    callerBuckets: CALLER_BLOBS,
    endUserLogKey: true,
  },
} as const satisfies RouteContract;
