import * as z from 'zod/mini';
import { CaptureItems, meta, NewEndUserId } from '../../http/schemas.js';
import { contract as capture } from '../capture/contract.js';
import type { RouteContract } from '../route-contract.js';

const CaptureBatchRequest = meta(
  z.strictObject({
    items: CaptureItems,
    end_user_id: z.optional(NewEndUserId),
  }),
  { id: 'CaptureBatchRequest' },
);

export const contract = {
  name: 'capture-batch',
  method: 'POST',
  path: '/v1/capture/batch',
  auth: true,
  summary: 'Capture up to 20 items',
  request: { body: CaptureBatchRequest },
  // Each item is captured as a single capture is.
  access: capture.access,
} as const satisfies RouteContract;
