import { contract as bucketDelete } from './endpoints/bucket-delete/contract.js';
import { contract as bucketGet } from './endpoints/bucket-get/contract.js';
import { contract as bucketPut } from './endpoints/bucket-put/contract.js';
import { contract as bucketTrustPolicy } from './endpoints/bucket-trust-policy/contract.js';
import { contract as captureBatch } from './endpoints/capture-batch/contract.js';
import { contract as capture } from './endpoints/capture/contract.js';
import { contract as chat } from './endpoints/chat/contract.js';
import { contract as docs } from './endpoints/docs/contract.js';
import { contract as documentContent } from './endpoints/document-content/contract.js';
import { contract as documentDelete } from './endpoints/document-delete/contract.js';
import { contract as documentFile } from './endpoints/document-file/contract.js';
import { contract as documentGet } from './endpoints/document-get/contract.js';
import { contract as documentUpdate } from './endpoints/document-update/contract.js';
import { contract as documentsList } from './endpoints/documents-list/contract.js';
import { contract as endUserDelete } from './endpoints/end-user-delete/contract.js';
import { contract as endUsersList } from './endpoints/end-users-list/contract.js';
import { contract as grep } from './endpoints/grep/contract.js';
import { contract as health } from './endpoints/health/contract.js';
import { contract as mcp } from './endpoints/mcp/contract.js';
import { contract as openapi } from './endpoints/openapi/contract.js';
import { contract as search } from './endpoints/search/contract.js';
import { contract as usage } from './endpoints/usage/contract.js';
import type { RouteContract } from './endpoints/route-contract.js';

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
export const PAGES = [docs] as const satisfies readonly RouteContract[];

export type PageName = (typeof PAGES)[number]['name'];

/** Everything the gateway serves: the API's routes, then the pages. */
export const ALL_ROUTES: readonly RouteContract[] = [...ROUTES, ...PAGES];
