import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'bucket-delete',
  method: 'DELETE',
  path: '/v1/bucket',
  auth: true,
  summary: "Unregister the tenant's bucket",
  // Removes the registration and the deletes it owed.
  access: { callerBuckets: { table: 'write' } },
} as const satisfies RouteContract;
