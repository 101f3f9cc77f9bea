import { type BucketService, bucketsOf } from '../../core/bucket/bucket-service.js';
import { createEndpoint } from '../../http/endpoint.js';
import { contract } from './contract.js';

export const createHandler = (deps: { buckets?: BucketService }) =>
  createEndpoint({
    auth: contract.auth,
    async run({ tenantId }) {
      return { status: 200, body: await bucketsOf(deps).unregister(tenantId) };
    },
  });
