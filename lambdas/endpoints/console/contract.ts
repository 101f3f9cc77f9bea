import type { RouteContract } from '../route-contract.js';

/** A page, not an API route: outside /v1 and not in the OpenAPI document (lambdas/endpoints/routes.ts, PAGES). */
export const contract = {
  name: 'console',
  method: 'GET',
  path: '/console',
  auth: false,
  summary: 'The web console: a single-page app over the public API, with the key the person enters',
  // Static files built from console/ and copied beside the bundle; the app itself calls the API with the person's key.
  access: {},
} as const satisfies RouteContract;
