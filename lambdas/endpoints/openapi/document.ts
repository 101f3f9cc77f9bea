import { assembleOpenApiDocument, type RouteDoc } from '../../http/openapi.js';
import { doc as bucketDelete } from '../bucket-delete/openapi.js';
import { doc as bucketGet } from '../bucket-get/openapi.js';
import { doc as bucketPut } from '../bucket-put/openapi.js';
import { doc as bucketTrustPolicy } from '../bucket-trust-policy/openapi.js';
import { doc as capture } from '../capture/openapi.js';
import { doc as captureBatch } from '../capture-batch/openapi.js';
import { doc as chat } from '../chat/openapi.js';
import { doc as documentContent } from '../document-content/openapi.js';
import { doc as documentDelete } from '../document-delete/openapi.js';
import { doc as documentFile } from '../document-file/openapi.js';
import { doc as documentGet } from '../document-get/openapi.js';
import { doc as documentUpdate } from '../document-update/openapi.js';
import { doc as documentsList } from '../documents-list/openapi.js';
import { doc as endUserDelete } from '../end-user-delete/openapi.js';
import { doc as endUsersList } from '../end-users-list/openapi.js';
import { doc as grep } from '../grep/openapi.js';
import { doc as health } from '../health/openapi.js';
import { doc as mcp } from '../mcp/openapi.js';
import { ROUTES, type RouteName } from '../routes.js';
import { doc as search } from '../search/openapi.js';
import { doc as usage } from '../usage/openapi.js';
import { doc as openapi } from './openapi.js';

/**
 * Every route's OpenAPI text (its folder's openapi.ts), by route: only this
 * module imports them, so only the openapi function's bundle carries them. A
 * route of the table without its text does not compile.
 */
const DOCS: Record<RouteName, RouteDoc> = {
  health,
  openapi,
  capture,
  'capture-batch': captureBatch,
  search,
  grep,
  'documents-list': documentsList,
  'document-get': documentGet,
  'document-update': documentUpdate,
  'document-delete': documentDelete,
  'document-content': documentContent,
  'document-file': documentFile,
  'end-users-list': endUsersList,
  'end-user-delete': endUserDelete,
  chat,
  mcp,
  usage,
  'bucket-trust-policy': bucketTrustPolicy,
  'bucket-put': bucketPut,
  'bucket-get': bucketGet,
  'bucket-delete': bucketDelete,
};

/** GET /v1/openapi.json's document: the route table's routes in order, each with its text (http/openapi.ts assembles). */
export const buildOpenApiDocument = (version: string) =>
  assembleOpenApiDocument(
    version,
    ROUTES.map((route) => ({ route, doc: DOCS[route.name] })),
  );
