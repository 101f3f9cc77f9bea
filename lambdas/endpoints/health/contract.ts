import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'health',
  method: 'GET',
  path: '/v1/health',
  auth: false,
  summary: 'Service health, version and embedder',
  // A key sent to health (no authorizer on the route) is checked by its hash: one GetItem, only when a key is sent.
  access: { tenants: 'lookup' },
} as const satisfies RouteContract;
