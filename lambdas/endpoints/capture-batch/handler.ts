import { createEndpoint } from '../../http/endpoint.js';
import { captureRawItems, type ReceiptListener } from '../../http/receipts.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

/** Items are captured in request order, so two identical items give created then deduped. */
export const createHandler = (deps: Pick<Services, 'capture'> & { onReceipt?: ReceiptListener }) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, body, deadline }) {
      // Batch items are stored and queued: their embedding never holds up the receipts. An item the
      // request's budget no longer has room for is not attempted: its receipt is backend_unavailable, nothing stored.
      const receipts = await captureRawItems(deps.capture, tenantId, body.items, {
        defaultEndUserId: body.end_user_id,
        deadline,
        onReceipt: deps.onReceipt,
      });
      const results = receipts.map((receipt, index) => ({ index, ...receipt }));
      return { status: 200, body: { total: results.length, succeeded: results.filter((r) => r.ok).length, results } };
    },
  });
