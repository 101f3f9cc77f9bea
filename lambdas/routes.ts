/**
 * The route table: one entry per endpoint. The CDK stack makes one Lambda
 * and one API Gateway method from each entry; the local server routes with
 * the same table. Pure data: importing it pulls in no handler code.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  /** Also the endpoint's folder under lambdas/endpoints/. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway resource path; `{id}` is a path parameter. */
  readonly path: string;
  /** Whether the Bearer-key authorizer guards it. */
  readonly auth: boolean;
  readonly summary: string;
  /**
   * The route may answer as a stream (server-sent events, asked with
   * `Accept: text/event-stream`): on AWS its integration streams the
   * function's response (API Gateway's response transfer mode STREAM) and
   * its function writes through Lambda response streaming.
   */
  readonly streaming?: boolean;
}

export const ROUTES = [
  { name: 'health', method: 'GET', path: '/v1/health', auth: false, summary: 'Service health, version and embedder' },
  { name: 'openapi', method: 'GET', path: '/v1/openapi.json', auth: false, summary: 'This API as OpenAPI 3.1' },
  { name: 'capture', method: 'POST', path: '/v1/capture', auth: true, summary: 'Capture one text or file' },
  { name: 'capture-batch', method: 'POST', path: '/v1/capture/batch', auth: true, summary: 'Capture up to 20 items' },
  { name: 'search', method: 'GET', path: '/v1/search', auth: true, summary: 'Hybrid search by meaning and words' },
  { name: 'grep', method: 'GET', path: '/v1/grep', auth: true, summary: 'Literal, exhaustive line matching' },
  { name: 'documents-list', method: 'GET', path: '/v1/documents', auth: true, summary: 'List documents, newest first' },
  { name: 'document-get', method: 'GET', path: '/v1/documents/{id}', auth: true, summary: 'One document' },
  { name: 'document-update', method: 'PATCH', path: '/v1/documents/{id}', auth: true, summary: "Change a document's title, source_ref or metadata" },
  { name: 'document-delete', method: 'DELETE', path: '/v1/documents/{id}', auth: true, summary: 'Delete a document everywhere' },
  // Reading a document back.
  { name: 'document-content', method: 'GET', path: '/v1/documents/{id}/content', auth: true, summary: "A document's text, by lines as grep numbers them" },
  { name: 'document-file', method: 'GET', path: '/v1/documents/{id}/file', auth: true, summary: "A document's file, as captured" },
  { name: 'end-users-list', method: 'GET', path: '/v1/end-users', auth: true, summary: "The tenant's end users" },
  { name: 'end-user-delete', method: 'DELETE', path: '/v1/end-users/{id}', auth: true, summary: "Erase an end user's library" },
  { name: 'chat', method: 'POST', path: '/v1/chat', auth: true, summary: 'Answer a question from the library, citing it', streaming: true },
  // The Model Context Protocol (Streamable HTTP, stateless): the library's tools for AI assistants.
  { name: 'mcp', method: 'POST', path: '/v1/mcp', auth: true, summary: 'The library as an MCP server (tools and resources for AI assistants)' },
  { name: 'usage', method: 'GET', path: '/v1/usage', auth: true, summary: "The tenant's spend per day" },
  { name: 'bucket-trust-policy', method: 'GET', path: '/v1/bucket/trust-policy', auth: true, summary: "The trust policy for a role in the caller's AWS account" },
  { name: 'bucket-put', method: 'PUT', path: '/v1/bucket', auth: true, summary: "Register or replace the tenant's own bucket (probed first)" },
  { name: 'bucket-get', method: 'GET', path: '/v1/bucket', auth: true, summary: "The tenant's registered bucket and its health" },
  { name: 'bucket-delete', method: 'DELETE', path: '/v1/bucket', auth: true, summary: "Unregister the tenant's bucket" },
] as const satisfies readonly RouteDefinition[];

export type RouteName = (typeof ROUTES)[number]['name'];

/**
 * Pages: served beside the API (no key, outside /v1, not in the OpenAPI
 * document), each by its own function and endpoint folder like a route.
 */
export const PAGES = [
  { name: 'docs', method: 'GET', path: '/docs', auth: false, summary: 'The API reference, rendered from /v1/openapi.json' },
] as const satisfies readonly RouteDefinition[];

export type PageName = (typeof PAGES)[number]['name'];

/** Everything the gateway serves: the API's routes, then the pages. */
export const ALL_ROUTES: readonly RouteDefinition[] = [...ROUTES, ...PAGES];

