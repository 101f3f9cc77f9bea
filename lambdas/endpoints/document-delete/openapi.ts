import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { FILE_ID } from '../../http/openapi-examples.js';
import { integer, meta } from '../../http/schemas.js';

const DeletedDocument = meta(
  z.object({
    id: z.string(),
    deleted: z.literal(true),
    blobs_deleted: meta(integer(), {
      description:
        "1 when the document's file was deleted (in the service's storage or the tenant's registered bucket), else 0 (a text, or a file in a bucket no longer registered)",
    }),
    blobs_pending: meta(integer(), {
      description:
        "1 when the tenant's registered bucket refused or missed the delete: it is retried in the background",
    }),
  }),
  { id: 'DeletedDocument' },
);

export const doc: RouteDoc = {
  tag: 'Documents',
  description:
    'Removes the document everywhere (metadata, index, blob); a later capture of the same payload is `created`.',
  notFound: true,
  responses: {
    '200': success('Deleted.', DeletedDocument, { id: FILE_ID, deleted: true, blobs_deleted: 1, blobs_pending: 0 }),
  },
};
