import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { $ZodObject, $ZodType } from 'zod/v4/core';
import { ROUTES, type RouteName } from '../routes.js';
import * as s from './schemas.js';

interface RouteSchemas {
  query?: $ZodObject;
  path?: $ZodObject;
  body?: $ZodType;
  /** The success body; absent for the OpenAPI document itself. */
  response?: $ZodType;
  /** The success status, when not 200. */
  status?: string;
}

/** Which schemas validate each route: the same objects the handlers parse with. */
const ROUTE_SCHEMAS: Record<RouteName, RouteSchemas> = {
  health: { response: s.HealthResponse },
  openapi: {},
  capture: { body: s.CaptureItem, response: s.Receipt, status: '201' },
  'capture-batch': { body: s.CaptureBatchRequest, response: s.CaptureBatchResponse },
  search: { query: s.SearchQuery, response: s.SearchResponse },
  grep: { query: s.GrepQuery, response: s.GrepResponse },
  'documents-list': { query: s.DocumentsQuery, response: s.DocumentsResponse },
  'document-get': { query: s.LibraryQuery, path: s.IdPath, response: s.Document },
  'document-delete': { query: s.LibraryQuery, path: s.IdPath, response: s.DeletedDocument },
  'end-users-list': { query: s.EndUsersQuery, response: s.EndUsersResponse },
  'end-user-delete': { path: s.EndUserPath, response: s.ErasureResponse },
  chat: { body: s.ChatRequest, response: s.ChatResponse },
  usage: { query: s.UsageQuery, response: s.UsageResponse },
};

const errorResponse = { description: 'Error', content: { 'application/json': { schema: s.ErrorResponse } } };

export function buildOpenApiDocument(version: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of ROUTES) {
    const schemas = ROUTE_SCHEMAS[route.name];
    const operation: ZodOpenApiOperationObject = {
      operationId: route.name,
      summary: route.summary,
      ...(route.auth ? {} : { security: [] }),
      requestParams: { ...(schemas.query ? { query: schemas.query } : {}), ...(schemas.path ? { path: schemas.path } : {}) },
      ...(schemas.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.body } } } } : {}),
      responses: {
        [schemas.status ?? '200']:
          schemas.response
            ? { description: 'Success', content: { 'application/json': { schema: schemas.response } } }
            : { description: 'Success', content: { 'application/json': {} } },
        default: errorResponse,
      },
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    paths[route.path] = { ...(paths[route.path] ?? {}), [method]: operation };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Library API', version, description: 'A searchable library of documents and memories per tenant and end user.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  });
}
