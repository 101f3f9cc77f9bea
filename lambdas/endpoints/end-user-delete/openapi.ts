import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { integer, meta } from '../../http/schemas.js';

const ErasureResponse = meta(
  z.object({
    id: z.string(),
    deleted: z.literal(true),
    documents_deleted: integer(),
    blobs_deleted: integer(),
    messages_deleted: integer(),
    blobs_pending: meta(integer(), {
      description: "objects in the tenant's registered bucket that could not be deleted yet; retried in the background",
    }),
  }),
  { id: 'ErasureResponse' },
);

export const doc: RouteDoc = {
  tag: 'End users',
  description:
    "Permanently erases the end user's library (`id` URL-encoded): documents, index entries, blobs, chats and creations. A new capture for that id starts an empty library.",
  notFound: true,
  responses: {
    '200': success('Erased.', ErasureResponse, {
      id: 'user-42',
      deleted: true,
      documents_deleted: 7,
      blobs_deleted: 2,
      messages_deleted: 4,
      blobs_pending: 0,
    }),
  },
};
