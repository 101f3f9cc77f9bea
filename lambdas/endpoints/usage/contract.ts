import * as z from 'zod/mini';
import { isCalendarDate } from '../../core/dates.js';
import { meta } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const usageDate = z
  .string()
  .check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'),
    z.refine(isCalendarDate, 'must be a real calendar date'),
  );

// (from after to is the core's rule: resolveRange in core/usage.ts.)
const UsageQuery = z.object({
  // format date: a validator of the document then refuses 2026-02-30 as this route does.
  from: meta(z.optional(usageDate), {
    description: 'First day (UTC), inclusive; default: the first day of the month.',
    format: 'date',
  }),
  to: meta(z.optional(usageDate), {
    description: 'Last day (UTC), inclusive; default: the last day of the month.',
    format: 'date',
  }),
});

export const contract = {
  name: 'usage',
  method: 'GET',
  path: '/v1/usage',
  auth: true,
  summary: "The tenant's spend per day",
  request: { query: UsageQuery },
  access: { usage: 'read' },
} as const satisfies RouteContract;
