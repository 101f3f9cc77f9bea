import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { type RouteDoc, success } from '../../http/openapi.js';
import { receiptExamples } from '../../http/openapi-examples.js';
import { integer, meta, receiptShape } from '../../http/schemas.js';

const BatchReceipt = meta(
  z.object({ ...receiptShape, index: meta(integer(), { description: "the item's 0-based position in `items`" }) }),
  {
    id: 'BatchReceipt',
  },
);

const CaptureBatchResponse = meta(
  z.object({
    total: meta(integer(), { description: 'items received' }),
    succeeded: meta(integer(), { description: 'items `created` or `deduped`' }),
    results: meta(z.array(BatchReceipt), { description: 'one receipt per item, in request order' }),
  }),
  { id: 'CaptureBatchResponse' },
);

export const doc: RouteDoc = {
  tag: 'Capture',
  description: `Captures 1 to ${LIMITS.batchItems} items in request order, each with a receipt of its own: a bad item is rejected on its receipt and the others go on. An item's own \`end_user_id\` wins over the batch's. More than ${LIMITS.batchItems} items, none, or \`items\` not an array: 422 \`invalid_request\`, nothing stored.`,
  requestExamples: {
    batch: { summary: 'two items', value: { items: [{ text: 'first note' }, { text: '' }], end_user_id: 'user-42' } },
  },
  responses: {
    '200': success('One receipt per item, in request order.', CaptureBatchResponse, {
      total: 2,
      succeeded: 1,
      results: [
        { index: 0, ...receiptExamples.created, source_ref: null },
        { index: 1, ...receiptExamples.rejected },
      ],
    }),
  },
};
