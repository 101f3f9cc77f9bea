import type { Services } from '../../core/services.js';
import { createEndpoint } from '../../http/endpoint.js';
import { captureRawItem, receiptStatus } from './receipts.js';

export const createHandler = (deps: Pick<Services, 'capture'>) =>
  createEndpoint<undefined, Record<string, unknown>>({
    auth: true,
    body: 'object',
    async run({ tenantId, body }) {
      // A single capture is interactive: on an idle machine a small one is findable by meaning when it answers.
      const receipt = await captureRawItem(deps.capture, tenantId, body, { interactive: true });
      return {
        status: receiptStatus(receipt),
        body: receipt,
        headers: receipt.retryable ? { 'retry-after': '1' } : undefined,
      };
    },
  });
