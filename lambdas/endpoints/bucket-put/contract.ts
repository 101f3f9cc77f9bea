import * as z from 'zod/mini';
import { meta } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const printable = (max: number) =>
  z
    .string()
    .check(z.minLength(1), z.maxLength(max), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'));

const BucketRequest = meta(
  z.strictObject({
    provider: meta(z.enum(['s3', 'r2']), {
      description: '`s3` (AWS, or any S3-compatible store with `endpoint`) or `r2` (Cloudflare R2).',
    }),
    bucket: meta(
      z.string().check(
        z.regex(
          /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
          'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
        ),
        // S3's other naming rules: no two dots together, not an IP address, none of its reserved prefixes or suffixes.
        z.refine((name: string) => !name.includes('..'), 'must be a bucket name: no two dots together'),
        z.refine((name: string) => !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(name), 'must be a bucket name, not an IP address'),
        z.refine(
          (name: string) =>
            !/^(?:xn--|sthree-|amzn-s3-demo-)/.test(name) && !/(?:-s3alias|--ol-s3|--x-s3|\.mrap)$/.test(name),
          'must be a bucket name: S3 reserves the prefixes xn--, sthree- and amzn-s3-demo-, and the suffixes -s3alias, --ol-s3, --x-s3 and .mrap',
        ),
      ),
      {
        description: 'The bucket name.',
      },
    ),
    region: meta(
      z.optional(z.string().check(z.maxLength(64), z.regex(/^[a-z0-9-]*$/, 'must be a region name such as eu-west-1'))),
      {
        description: 'AWS region (default us-east-1); R2: `auto` (the default).',
      },
    ),
    endpoint: meta(z.optional(z.string().check(z.maxLength(2048))), {
      description:
        'An https origin for R2 (`https://<account id>.r2.cloudflarestorage.com`, required) or another S3-compatible store; omit for AWS S3. It must be a public address.',
    }),
    prefix: meta(
      z.optional(z.string().check(z.maxLength(512), z.regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'))),
      {
        description:
          'Every object goes under it (default `library/`; `""` for the bucket root); a trailing `/` is added.',
      },
    ),
    role_arn: meta(z.optional(z.string().check(z.maxLength(2048))), {
      description: 'S3 on AWS: the role the service assumes with the external id of GET /v1/bucket/trust-policy.',
    }),
    access_key_id: meta(z.optional(printable(128)), {
      description: 'With secret_access_key: an access key pair (S3, R2, S3-compatible).',
    }),
    secret_access_key: meta(z.optional(printable(256)), { description: 'Encrypted at rest and never returned.' }),
  }),
  { id: 'BucketRequest' },
);

export const contract = {
  name: 'bucket-put',
  method: 'PUT',
  path: '/v1/bucket',
  auth: true,
  summary: "Register or replace the tenant's own bucket (probed first)",
  request: { body: BucketRequest },
  // Probes the bucket (write, read back, delete) before registering; seals a secret key.
  access: { callerBuckets: { table: 'write', seal: true, reach: true } },
} as const satisfies RouteContract;
