import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { bucketExample, DATE } from '../../http/openapi-examples.js';
import { bucketFields, integer, meta } from '../../http/schemas.js';

const BucketStatus = meta(
  z.object({
    ...bucketFields,
    role_arn: z.nullable(z.string()),
    state: meta(z.enum(['ok', 'failing']), {
      description: '`failing` after a write, read or delete to the bucket failed; `ok` again after a write works',
    }),
    last_error: meta(z.nullable(z.string()), {
      description: 'the step and error of the last failure after registration (kept after recovery)',
    }),
    last_error_at: z.nullable(z.string()),
    pending_deletes: meta(integer(), {
      description: 'objects whose delete the bucket refused or missed, retried in the background',
    }),
  }),
  { id: 'BucketStatus', description: 'The registration with its health.' },
);

export const doc: RouteDoc = {
  tag: 'Bucket',
  description:
    "The tenant's registration (404 when none) with its health: `state` turns `failing` when a write, read or delete to the bucket failed after registration (`last_error`, `last_error_at`), and `ok` again after a write works.",
  notFound: true,
  responses: {
    '200': success('The registration and its health.', BucketStatus, {
      ...bucketExample,
      role_arn: null,
      state: 'failing',
      last_error: 'write: refused (AccessDenied (HTTP 403))',
      last_error_at: DATE,
      pending_deletes: 0,
    }),
  },
};
