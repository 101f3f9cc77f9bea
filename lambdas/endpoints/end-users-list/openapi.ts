import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { DATE, page } from '../../http/openapi-examples.js';
import { integer, meta, pageFields } from '../../http/schemas.js';

const EndUsersResponse = meta(
  z.object({
    count: integer(),
    end_users: z.array(
      z.object({ id: z.string(), created_at: z.string(), last_active_at: z.string(), document_count: integer() }),
    ),
    ...pageFields,
  }),
  { id: 'EndUsersResponse' },
);

export const doc: RouteDoc = {
  tag: 'End users',
  description: "Every end user under the calling key's tenant.",
  responses: {
    '200': success('A page of end users.', EndUsersResponse, {
      count: 1,
      end_users: [{ id: 'user-42', created_at: DATE, last_active_at: DATE, document_count: 7 }],
      ...page,
    }),
  },
};
