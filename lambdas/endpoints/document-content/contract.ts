import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { EndUserId, IdPath, limitParam, meta } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const DocumentContentQuery = z.object({
  from_line: meta(z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1), {
    description:
      'The first line to read, 1-based (default 1): the line numbers grep and chat cite. Past the last line: no lines, `next_from_line` null.',
  }),
  lines: meta(limitParam(LIMITS.contentLines), {
    description: `At most this many lines (${LIMITS.contentLines.min} to ${LIMITS.contentLines.max}, default ${LIMITS.contentLines.default}); a page of very long lines may hold fewer (follow \`next_from_line\`).`,
  }),
  end_user_id: z.optional(EndUserId),
});

export const contract = {
  name: 'document-content',
  method: 'GET',
  path: '/v1/documents/{id}/content',
  auth: true,
  summary: "A document's text, by lines as grep numbers them",
  request: { query: DocumentContentQuery, path: IdPath },
  // The record and the library's live generation, then the text from the index, as grep reads it.
  access: { documents: 'read', search: 'read', endUserLogKey: true },
} as const satisfies RouteContract;
