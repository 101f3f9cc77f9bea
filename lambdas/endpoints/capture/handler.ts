import type { Services } from '../../core/services.js';
import { createEndpoint } from '../../http/endpoint.js';
import { captureRawItem, receiptStatus } from './receipts.js';

export const createHandler = (deps: Pick<Services, 'capture'>) =>
  createEndpoint<undefined, Record<string, unknown>>({
    auth: true,
    body: 'object',
    async run({ tenantId, body }) {
      const receipt = await captureRawItem(deps.capture, tenantId, body);
      return {
        status: receiptStatus(receipt),
        body: receipt,
        headers: receipt.retryable ? { 'retry-after': '1' } : undefined,
      };
    },
  });
