import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { cursorParam, EndUserId, filterParam, limitParam, text } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const GrepQuery = z.object({
  pattern: text(1, LIMITS.grepPatternChars),
  case_sensitive: z.pipe(
    z._default(z.enum(['true', 'false']), 'false'),
    z.transform((v: 'true' | 'false') => v === 'true'),
  ),
  file_id: z.optional(z.string().check(z.minLength(1))),
  limit: limitParam(LIMITS.grep),
  cursor: cursorParam,
  end_user_id: z.optional(EndUserId),
  filter: filterParam,
});

export const contract = {
  name: 'grep',
  method: 'GET',
  path: '/v1/grep',
  auth: true,
  summary: 'Literal, exhaustive line matching',
  request: { query: GrepQuery },
  // Reads the library's live generation (documents) before the index, as search does.
  access: { documents: 'read', search: 'read', endUserLogKey: true },
} as const satisfies RouteContract;
