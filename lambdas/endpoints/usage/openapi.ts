import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { integer, meta } from '../../http/schemas.js';

const usageCounts = {
  tokens_used: integer(),
  chat_calls: integer(),
  ocr_pages: integer(),
  captures: integer(),
};

const UsageResponse = meta(
  z.object({
    tenant_id: z.string(),
    from: z.string(),
    to: z.string(),
    ...usageCounts,
    days: meta(z.array(z.object({ date: z.string(), ...usageCounts })), {
      description: 'Days with any spend, oldest first.',
    }),
  }),
  { id: 'UsageResponse' },
);

export const doc: RouteDoc = {
  tag: 'Usage',
  description: "The tenant's spend per day (UTC) between `from` and `to`, inclusive; default the current month.",
  responses: {
    '200': success('The spend.', UsageResponse, {
      tenant_id: 'acme',
      from: '2026-11-01',
      to: '2026-11-30',
      tokens_used: 812,
      chat_calls: 1,
      ocr_pages: 0,
      captures: 2,
      days: [{ date: '2026-11-22', tokens_used: 812, chat_calls: 1, ocr_pages: 0, captures: 2 }],
    }),
  },
};
