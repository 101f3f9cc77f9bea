import type { RouteContract } from '../route-contract.js';

/** The console's built scripts and stylesheet (console/dist): a page's files, outside /v1, no key. */
export const contract = {
  name: 'console-asset',
  method: 'GET',
  path: '/console/{asset}',
  auth: false,
  summary: "The web console's scripts and stylesheet",
  access: {},
} as const satisfies RouteContract;
