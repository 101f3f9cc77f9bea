import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { meta } from '../../http/schemas.js';

const TrustPolicy = meta(
  z.object({
    service_principal_arn: meta(z.string(), {
      description:
        "the deployment's role that assumes the customer's role; on a local stack without an AWS identity, arn:aws:iam::000000000000:role/library-local-no-aws-identity (IAM refuses it; role registration is off there)",
    }),
    external_id: meta(z.string(), { description: 'unique to the tenant, unguessable, never changes' }),
    trust_policy: meta(z.object({ Version: z.string(), Statement: z.array(z.record(z.string(), z.unknown())) }), {
      description: "the IAM trust policy to attach to the customer's role, as is",
    }),
  }),
  { id: 'TrustPolicy' },
);

const EXTERNAL_ID = 'lib-4kFq0v2x9Lr8TqMZ1cJb7sWnYhE3aPdG';
const PRINCIPAL = 'arn:aws:iam::123456789012:role/library-bucket-access';

export const doc: RouteDoc = {
  tag: 'Bucket',
  description:
    "The IAM trust policy a caller attaches to a role in its own AWS account so that the service can assume it: the principal is the deployment's dedicated role, the condition this tenant's external id (unique, unguessable, never changes). A local stack names the principal its operator configures, else the identity of its machine's AWS credentials; with neither it still answers, with the tenant's real external id, but names `arn:aws:iam::000000000000:role/library-local-no-aws-identity`, a principal IAM refuses, and refuses `role_arn` registrations (docs/bucket.md, \"Local stack\").",
  notFound: true,
  responses: {
    '200': success('The trust policy.', TrustPolicy, {
      service_principal_arn: PRINCIPAL,
      external_id: EXTERNAL_ID,
      trust_policy: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: PRINCIPAL },
            Action: 'sts:AssumeRole',
            Condition: { StringEquals: { 'sts:ExternalId': EXTERNAL_ID } },
          },
        ],
      },
    }),
  },
};
