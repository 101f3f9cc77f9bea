import { type BucketService, bucketsOf } from '../../core/bucket/bucket-service.js';
import { createEndpoint } from '../../http/endpoint.js';
import { contract } from './contract.js';

/** PUT /v1/bucket: the probe runs in the request; the answer is the registration, or the 422 of the step that failed. */
export const createHandler = (deps: { buckets?: BucketService }) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, body }) {
      const view = await bucketsOf(deps).register(tenantId, {
        provider: body.provider,
        bucket: body.bucket,
        region: body.region,
        endpoint: body.endpoint,
        prefix: body.prefix,
        roleArn: body.role_arn,
        accessKeyId: body.access_key_id,
        secretAccessKey: body.secret_access_key,
      });
      return { status: 200, body: view };
    },
  });
