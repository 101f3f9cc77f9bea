import type { RouteContract } from '../route-contract.js';

/** A page, not an API route: outside /v1 and not in the OpenAPI document (lambdas/endpoints/routes.ts, PAGES). */
export const contract = {
  name: 'docs',
  method: 'GET',
  path: '/docs',
  auth: false,
  summary: 'The API reference, rendered from /v1/openapi.json',
  // The API reference page: static HTML and the renderer copied beside the bundle.
  access: {},
} as const satisfies RouteContract;
