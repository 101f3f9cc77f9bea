import * as z from 'zod/mini';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { ERROR_RESPONSES, type RouteDoc, requestIdOnly, success } from '../../http/openapi.js';
import { bucketExample, errorExample } from '../../http/openapi-examples.js';
import { bucketFields, ErrorResponse, meta } from '../../http/schemas.js';

const BucketRegistration = meta(z.object(bucketFields), {
  id: 'BucketRegistration',
  description: 'The registration, without secrets.',
});

/** PUT /v1/bucket's 422: a field breaks a rule, or the probe failed at a step. */
const probeFailures: ZodOpenApiResponseObject = {
  description:
    '`invalid_request` (a field breaks a rule; `message` names it, `endpoint` included when it is not https to a public address), `bucket_access_denied` or `bucket_unreachable` (the probe failed; `message` names the step). Nothing was registered; a registration there was stays.',
  headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
  content: {
    'application/json': {
      schema: ErrorResponse,
      examples: {
        invalid: { summary: 'endpoint refused', value: errorExample('invalid_request', 'endpoint: must use https') },
        denied: {
          summary: 'write refused',
          value: errorExample('bucket_access_denied', ERROR_RESPONSES.bucket_access_denied.message),
        },
        unreachable: {
          summary: 'bucket unreachable',
          value: errorExample('bucket_unreachable', ERROR_RESPONSES.bucket_unreachable.message),
        },
      },
    },
  },
};

export const doc: RouteDoc = {
  tag: 'Bucket',
  description:
    "Registers or replaces the tenant's bucket: by `role_arn` (S3 on AWS) or by an access key pair (S3, R2, S3-compatible). Before answering, the service writes a probe object under `prefix`, reads it back, compares it and deletes it; a failed step answers 422 and registers nothing (a registration there was stays). While registered, the raw bytes of captured files go to the bucket under `{prefix}shared/{file_id}` or `{prefix}end-users/{end_user_id}/{file_id}`.",
  requestExamples: {
    r2: {
      summary: 'R2 with keys',
      value: {
        provider: 'r2',
        bucket: 'acme-library',
        endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com',
        access_key_id: 'AKIAEXAMPLE',
        secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
    },
    role: {
      summary: 'S3 with a role',
      value: {
        provider: 's3',
        bucket: 'acme-library',
        region: 'eu-west-1',
        prefix: 'library/',
        role_arn: 'arn:aws:iam::210987654321:role/library-access',
      },
    },
  },
  responses: {
    '200': success('Registered: the registration without secrets.', BucketRegistration, bucketExample),
    '422': probeFailures,
  },
};
