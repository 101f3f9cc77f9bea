import { bucketsOf, type BucketService } from '../../core/bucket/bucket-service.js';
import { createEndpoint } from '../../http/endpoint.js';

export const createHandler = (deps: { buckets?: BucketService }) =>
  createEndpoint({
    auth: true,
    async run({ tenantId }) {
      return { status: 200, body: await bucketsOf(deps).get(tenantId) };
    },
  });
