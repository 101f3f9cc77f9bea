import { contract as bucketDelete } from './bucket-delete/contract.js';
import { contract as bucketGet } from './bucket-get/contract.js';
import { contract as bucketPut } from './bucket-put/contract.js';
import { contract as bucketTrustPolicy } from './bucket-trust-policy/contract.js';
import { contract as capture } from './capture/contract.js';
import { contract as captureBatch } from './capture-batch/contract.js';
import { contract as chat } from './chat/contract.js';
import { contract as consolePage } from './console/contract.js';
import { contract as consoleAsset } from './console-asset/contract.js';
import { contract as docs } from './docs/contract.js';
import { contract as documentContent } from './document-content/contract.js';
import { contract as documentDelete } from './document-delete/contract.js';
import { contract as documentFile } from './document-file/contract.js';
import { contract as documentGet } from './document-get/contract.js';
import { contract as documentUpdate } from './document-update/contract.js';
import { contract as documentsList } from './documents-list/contract.js';
import { contract as endUserDelete } from './end-user-delete/contract.js';
import { contract as endUsersList } from './end-users-list/contract.js';
import { contract as grep } from './grep/contract.js';
import { contract as health } from './health/contract.js';
import { contract as mcp } from './mcp/contract.js';
import { contract as openapi } from './openapi/contract.js';
import type { RouteContract } from './route-contract.js';
import { contract as search } from './search/contract.js';
import { contract as usage } from './usage/contract.js';

/**
 * The route table: every route's contract (lambdas/endpoints/<route>/contract.ts),
 * in the OpenAPI document's order. The CDK stack makes one Lambda and one API
 * Gateway method from each and grants the function its contract's access; the
 * local server routes with the same table. Contracts are data and schemas:
 * importing the table pulls in no handler code and no AWS SDK.
 */
export const ROUTES = [
  health,
  openapi,
  capture,
  captureBatch,
  search,
  grep,
  documentsList,
  documentGet,
  documentUpdate,
  documentDelete,
  // Reading a document back.
  documentContent,
  documentFile,
  endUsersList,
  endUserDelete,
  chat,
  // The Model Context Protocol (Streamable HTTP, stateless): the library's tools for AI assistants.
  mcp,
  usage,
  bucketTrustPolicy,
  bucketPut,
  bucketGet,
  bucketDelete,
] as const satisfies readonly RouteContract[];

export type RouteName = (typeof ROUTES)[number]['name'];

/**
 * Pages: served beside the API (no key, outside /v1, not in the OpenAPI
 * document), each by its own function and endpoint folder like a route.
 */
export const PAGES = [docs, consolePage, consoleAsset] as const satisfies readonly RouteContract[];

export type PageName = (typeof PAGES)[number]['name'];

/** Everything the gateway serves: the API's routes, then the pages. */
export const ALL_ROUTES: readonly RouteContract[] = [...ROUTES, ...PAGES];
