import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { cursorParam, EndUserId, filterParam, limitParam } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const DocumentsQuery = z.object({
  limit: limitParam(LIMITS.documents),
  cursor: cursorParam,
  end_user_id: z.optional(EndUserId),
  source_ref: z.optional(z.string().check(z.maxLength(LIMITS.sourceRefChars))),
  filter: filterParam,
});

export const contract = {
  name: 'documents-list',
  method: 'GET',
  path: '/v1/documents',
  auth: true,
  summary: 'List documents, newest first',
  request: { query: DocumentsQuery },
  access: { documents: 'read', endUserLogKey: true },
} as const satisfies RouteContract;
