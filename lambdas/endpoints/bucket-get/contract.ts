import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'bucket-get',
  method: 'GET',
  path: '/v1/bucket',
  auth: true,
  summary: "The tenant's registered bucket and its health",
  // The registration without secrets, its health and the deletes still owed.
  access: { callerBuckets: { table: 'read' } },
} as const satisfies RouteContract;
