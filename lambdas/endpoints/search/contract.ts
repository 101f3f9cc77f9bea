import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { ITEM_KINDS } from '../../core/model.js';
import { cursorParam, EndUserId, filterParam, limitParam, meta, nonBlankText } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const kindList = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined, ctx) => {
    if (value === undefined) return undefined;
    // Each element exactly a kind: an empty one ("chat,") or one with spaces is a typo to name, not to guess past.
    const kinds = value.split(',');
    const unknown = kinds.filter((k) => !(ITEM_KINDS as readonly string[]).includes(k));
    if (unknown.length) {
      ctx.issues.push({ code: 'custom', message: `must be a comma list of ${ITEM_KINDS.join(', ')}`, input: value });
      return z.NEVER;
    }
    return kinds as Array<(typeof ITEM_KINDS)[number]>;
  }),
);

const SearchQuery = z.object({
  // A blank query has no words and no meaning to match by: its results would be arbitrary (as chat's question).
  q: nonBlankText(LIMITS.queryChars),
  limit: limitParam(LIMITS.search),
  cursor: cursorParam,
  end_user_id: z.optional(EndUserId),
  kind: meta(kindList, { description: `Comma list of kinds to keep: ${ITEM_KINDS.join(', ')}.` }),
  min_score: meta(z.optional(z.coerce.number().check(z.minimum(0), z.maximum(1))), {
    description:
      'Only results whose score is at least this (0 to 1, default 0). Scores are absolute: see the score field.',
  }),
  filter: filterParam,
});

export const contract = {
  name: 'search',
  method: 'GET',
  path: '/v1/search',
  auth: true,
  summary: 'Hybrid search by meaning and words',
  request: { query: SearchQuery },
  // Search and grep read the library's live generation (documents) before the index.
  // A search's query embedding is spend, charged to the tenant (usage).
  access: { documents: 'read', usage: 'write', search: 'read', embed: true, endUserLogKey: true },
} as const satisfies RouteContract;
