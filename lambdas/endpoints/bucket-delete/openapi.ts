import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { meta } from '../../http/schemas.js';

const BucketUnregistered = meta(z.object({ deleted: z.literal(true) }), { id: 'BucketUnregistered' });

export const doc: RouteDoc = {
  tag: 'Bucket',
  description:
    "Unregisters the bucket (404 when none): later captures go to the service's storage; objects already in the bucket stay there, and the documents captured meanwhile stay in the library.",
  notFound: true,
  responses: { '200': success('Unregistered.', BucketUnregistered, { deleted: true }) },
};
