import type { RouteContract } from '../route-contract.js';

export const contract = {
  name: 'openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  auth: false,
  summary: 'This API as OpenAPI 3.1',
  access: {},
} as const satisfies RouteContract;
