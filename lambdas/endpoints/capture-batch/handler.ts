import { createEndpoint } from '../../http/endpoint.js';
import { captureRawItem, type ReceiptListener } from '../../http/receipts.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

/**
 * The items are captured at once, so their writes share transactions (a
 * batch of 20 pays for one index commit, not 20). What the contract orders
 * stays in request order: an item waits for every earlier item with the same
 * content (the first is created, the second deduped) or the same source_ref
 * in the same library (a later version replaces an earlier one), and a file
 * for the files before it (they are read as they were one at a time).
 */
export const createHandler = (deps: Pick<Services, 'capture'> & { onReceipt?: ReceiptListener }) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, body, deadline }) {
      const lastWith = new Map<string, Promise<unknown>>();
      const results = await Promise.all(
        body.items.map((raw, index) => {
          const keys = orderingKeys(raw, body.end_user_id);
          const earlier = keys.flatMap((key) => lastWith.get(key) ?? []);
          // Batch items are stored and queued: their embedding never holds up the receipts. An item the
          // request's budget no longer has room for is not attempted: its receipt is backend_unavailable, nothing stored.
          const run = Promise.all(earlier).then(async () => ({
            index,
            ...(await captureRawItem(deps.capture, tenantId, raw, {
              defaultEndUserId: body.end_user_id,
              interactive: false,
              deadline,
              onReceipt: deps.onReceipt,
            })),
          }));
          for (const key of keys) lastWith.set(key, run);
          return run;
        }),
      );
      return { status: 200, body: { total: results.length, succeeded: results.filter((r) => r.ok).length, results } };
    },
  });

/** What an item must not overtake an earlier item on: its content, its source_ref within its library, and (a file) the files before it. */
function orderingKeys(raw: unknown, batchEndUserId: string | undefined): string[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const { text, content_base64, source_ref, end_user_id } = raw as Record<string, unknown>;
  const keys: string[] = [];
  if (typeof text === 'string') keys.push(`content\0${text}`);
  // Files also wait for each other: one read in the request needs a free reader, and the batch's other files
  // must not take them all (a file that finds none is queued, and its rejection would come later, not in its receipt).
  if (typeof content_base64 === 'string') keys.push(`content\0${content_base64}`, 'file');
  if (typeof source_ref === 'string') {
    const library = typeof end_user_id === 'string' ? end_user_id : (batchEndUserId ?? '');
    keys.push(`source\0${library}\0${source_ref}`);
  }
  return keys;
}
