import { createEndpoint } from '../../http/endpoint.js';
import { captureRawItem, type ReceiptListener, receiptStatus } from '../../http/receipts.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'capture'> & { onReceipt?: ReceiptListener }) =>
  createEndpoint<undefined, Record<string, unknown>>({
    auth: contract.auth,
    // Any JSON object: the item is checked on its receipt (a bad one is rejected, never a 422 invalid_request); its CaptureItem is for the document.
    body: 'object',
    async run({ tenantId, body, deadline }) {
      // A single capture is interactive: on an idle machine a small one is findable by meaning when it answers,
      // as long as the request's budget allows; past it, the work is queued and the receipt says processing.
      const receipt = await captureRawItem(deps.capture, tenantId, body, {
        interactive: true,
        deadline,
        onReceipt: deps.onReceipt,
      });
      return {
        status: receiptStatus(receipt),
        body: receipt,
        headers: receipt.retryable ? { 'retry-after': '1' } : undefined,
      };
    },
  });
