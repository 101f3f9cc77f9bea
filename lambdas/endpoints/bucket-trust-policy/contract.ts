import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'bucket-trust-policy',
  method: 'GET',
  path: '/v1/bucket/trust-policy',
  auth: true,
  summary: "The trust policy for a role in the caller's AWS account",
  // The external id is stored on first request (put-if-absent); the principal is the dedicated role's ARN (an env var).
  access: { callerBuckets: { table: 'write' } },
} as const satisfies RouteContract;
