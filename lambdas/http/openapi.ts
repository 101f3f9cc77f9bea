import * as z from 'zod/mini';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { LIMITS } from '../core/limits.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { errorExample, FILE_ID } from './openapi-examples.js';
import type { RouteDefinition } from './route.js';
import * as s from './schemas.js';

/**
 * GET /v1/openapi.json: the API as OpenAPI 3.1, generated from the schemas
 * that validate requests. This is what the document says of itself (info,
 * tags, security, the headers and error answers every operation shares) and
 * how an operation is made of a route's contract and its OpenAPI text
 * (lambdas/endpoints/<route>/contract.ts and openapi.ts, gathered by
 * lambdas/endpoints/openapi/document.ts). It lists every status each
 * operation can return, with its body and headers, so that a generated client
 * (test/contract/openapi-codegen.test.ts compiles one) types every answer:
 * a rejected capture is a receipt, not an error body.
 *
 * What each operation can answer, and why:
 * - every answer carries `x-request-id`;
 * - 429 on every operation (a key's rate; on AWS the routes without a key are
 *   throttled per route), 500 (a bug) and 503 (a backend, the key check or the
 *   function itself is unavailable: on AWS the gateway answers it in the
 *   contract's error body, lib/constructs/gateway-responses.ts);
 * - 401 on the routes behind the key;
 * - 400, 413, 415 on the routes that read a JSON body;
 * - 422 `invalid_request` on every route: each validates its query (a
 *   parameter it does not take is refused, docs/api-notes.md "Parameters"),
 *   and its path and body where it has them; POST /v1/capture answers 422
 *   with a rejected receipt for a bad item, the Error for a bad parameter;
 * - 409 `not_ready` where a document's text is read back before it is known;
 * - 404 where an id names something that may not exist;
 * - 404 for an unknown path and 405 (with `Allow`) for a wrong method are
 *   answered for any path, so they are components here, not on operations.
 */

/** A route's OpenAPI text (its folder's openapi.ts); the parameters and body come from its contract. */
export interface RouteDoc {
  tag: Tag;
  description: string;
  /** Examples of the request body. */
  requestExamples?: Record<string, { summary: string; value: unknown }>;
  /** The responses particular to the route: its successes, and answers whose body is not the Error. */
  responses: ZodOpenApiResponsesObject;
  /** Whether an id in the path may name nothing (404). */
  notFound?: boolean;
  /** Whether it reads a document's text, which may not be known yet (409 `not_ready`). */
  notReady?: boolean;
  /** A public route that takes a key when one is sent (health: a valid key adds details). */
  optionalKey?: boolean;
  /** Schemas its description names that no operation's body is (chat's stream events): each a component. */
  schemas?: Record<string, z.ZodMiniType>;
}

const TAGS = [
  {
    name: 'Capture',
    description: 'Store texts and files in a library. A capture answers with a receipt: created, deduped or rejected.',
  },
  {
    name: 'Search',
    description: 'Find material by meaning and words (search), or every literal occurrence of a string (grep).',
  },
  { name: 'Documents', description: 'List, read and delete the documents of a library.' },
  { name: 'Chat', description: 'Answers grounded in a library, citing it.' },
  { name: 'End users', description: "The tenant's end users, each with a library of its own, and their erasure." },
  { name: 'Usage', description: "The tenant's spend." },
  { name: 'Bucket', description: "The tenant's own S3 or R2 bucket for the raw files it captures (docs/bucket.md)." },
  {
    name: 'MCP',
    description: 'The library as a Model Context Protocol server, for AI assistants (docs/api-notes.md, "MCP").',
  },
  { name: 'Service', description: 'Health and this description; no key needed.' },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

// ---- headers

const RequestIdHeader = {
  description: 'The request id, also in an error body as `request_id`: quote it when reporting a problem.',
  required: true,
  schema: { type: 'string', examples: ['req_01JD7ZQ8W3M4X9N2B5C6V7K8P0'] },
} as const;

const RetryAfterHeader = {
  description: 'Seconds to wait before sending the request again.',
  required: true,
  schema: { type: 'integer', minimum: 0, examples: [1] },
} as const;

export const requestIdOnly = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
const withRetryAfter = { ...requestIdOnly, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

// ---- responses

export const json = (schema: unknown, example?: unknown) =>
  ({
    'application/json': { schema, ...(example !== undefined ? { example } : {}) },
  }) as ZodOpenApiResponseObject['content'];

/** The error answers, one component each: the Error body with its code. */
export const ERROR_RESPONSES = {
  invalid_json: {
    id: 'InvalidJson',
    description: 'The body is not UTF-8 JSON whose top level is an object (or it repeats a key).',
    message: 'body: not valid JSON',
  },
  unauthorized: {
    id: 'Unauthorized',
    description: 'Missing, malformed, unknown or revoked API key.',
    message: 'missing Authorization: Bearer <API_KEY>',
  },
  not_found: {
    id: 'NotFound',
    description: "Nothing with this id in the caller's library (or an unknown path).",
    message: `document ${FILE_ID} not found`,
  },
  not_ready: {
    id: 'NotReady',
    description:
      "The document's text is not extracted yet (`status` `processing`; try again once it is known), or never will be (`failed`: `failure_reason` says why).",
    message: `document ${FILE_ID} is not ready: its text is still being extracted`,
  },
  method_not_allowed: {
    id: 'MethodNotAllowed',
    description: 'A known path with a method it does not take; `Allow` lists the methods it takes.',
    message: 'POST is not allowed on /v1/search; use GET',
  },
  payload_too_large: {
    id: 'PayloadTooLarge',
    description: `The request body is over ${LIMITS.requestBodyBytes} bytes.`,
    message: `request body over ${LIMITS.requestBodyBytes} bytes`,
  },
  unsupported_media_type: {
    id: 'UnsupportedMediaType',
    description: 'A body sent without `Content-Type: application/json` (a PATCH: or `application/merge-patch+json`).',
    message: 'Content-Type must be application/json',
  },
  invalid_request: {
    id: 'InvalidRequest',
    description:
      'Well-formed, but breaks the contract; `message` names the field, or the query parameter the operation does not take (`lmit: unknown parameter`).',
    message: 'limit: Too big: expected number to be <=50',
  },
  bucket_unreachable: {
    id: 'BucketUnreachable',
    description:
      'PUT /v1/bucket: the probe could not reach the bucket; `message` names the step (write, read, compare, delete, assume role) and what to check.',
    message:
      'write: the bucket "acme-library" at https://example.r2.cloudflarestorage.com could not be reached (ENOTFOUND); check the endpoint and region, and that the bucket accepts connections from the internet; try again if it was throttling',
  },
  bucket_access_denied: {
    id: 'BucketAccessDenied',
    description:
      'PUT /v1/bucket: the bucket (or STS) refused a probe step; `message` names the step and what to check.',
    message:
      'write: the bucket "acme-library" refused writing the probe object "library/.library-probe/3f2a" (AccessDenied (HTTP 403)); check that the credentials allow s3:PutObject on "acme-library/library/*"',
  },
  rate_limited: {
    id: 'RateLimited',
    description: "Over the key's rate; wait `Retry-After` seconds.",
    message: 'over the rate of 20 requests/s for this key',
  },
  internal_error: {
    id: 'InternalError',
    description: 'A bug; nothing half-written was kept.',
    message: 'internal error; nothing half-written was kept',
  },
  unavailable: {
    id: 'Unavailable',
    description: 'A backend is unavailable; nothing was done; safe to retry after `Retry-After` seconds.',
    message: 'a backend is unavailable; safe to retry',
  },
} as const satisfies Record<ErrorCode, { id: string; description: string; message: string }>;

const RETRY_AFTER: Partial<Record<ErrorCode, number>> = { rate_limited: 1, unavailable: 1 };

const errorResponses = Object.fromEntries(
  (Object.keys(ERROR_RESPONSES) as ErrorCode[]).map((code) => {
    const spec = ERROR_RESPONSES[code];
    const retryAfter = RETRY_AFTER[code];
    const headers: Record<string, unknown> =
      code === 'method_not_allowed'
        ? {
            ...requestIdOnly,
            Allow: {
              description: 'The methods the path takes.',
              required: true,
              schema: { type: 'string', examples: ['GET'] },
            },
          }
        : retryAfter !== undefined
          ? withRetryAfter
          : requestIdOnly;
    const response: ZodOpenApiResponseObject = {
      id: spec.id,
      description: `\`${code}\`: ${spec.description}`,
      headers: headers as ZodOpenApiResponseObject['headers'],
      content: json(s.ErrorResponse, errorExample(code, spec.message, retryAfter)),
    };
    return [code, response];
  }),
) as Record<ErrorCode, ZodOpenApiResponseObject>;

const error = (code: ErrorCode) => ({ [String(ERROR_STATUS[code])]: errorResponses[code] });

export const success = (
  description: string,
  schema: unknown,
  example: unknown,
  headers: object = requestIdOnly,
): ZodOpenApiResponseObject => ({
  description,
  headers: headers as ZodOpenApiResponseObject['headers'],
  content: json(schema, example),
});

/** A 503 whose body is the route's own (a rejected receipt, health's report) or, from the gateway, the Error. */
export const ownOr503 = (description: string, schema: z.ZodMiniType, example: unknown): ZodOpenApiResponseObject => ({
  description: `${description} On AWS the gateway may answer a 503 itself (the function or the key check unavailable) with the Error body.`,
  headers: withRetryAfter as ZodOpenApiResponseObject['headers'],
  content: {
    'application/json': {
      schema: z.union([schema, s.ErrorResponse]),
      examples: {
        own: { summary: 'from the service', value: example },
        gateway: {
          summary: 'from the gateway',
          value: errorExample('unavailable', 'a backend timed out; safe to retry', 1),
        },
      },
    },
  },
});

/** An operation's makings: the route (its contract) and its OpenAPI text. */
export interface DocumentedRoute {
  route: RouteDefinition;
  doc: RouteDoc;
}

function operationResponses({ route, doc }: DocumentedRoute): ZodOpenApiResponsesObject {
  const own = doc.responses;
  const body = route.request?.body;
  const codes: ErrorCode[] = [];
  if (body) codes.push('invalid_json');
  if (route.auth) codes.push('unauthorized');
  if (doc.notFound) codes.push('not_found');
  if (doc.notReady) codes.push('not_ready');
  if (body) codes.push('payload_too_large', 'unsupported_media_type');
  // Every operation checks its query (an unknown parameter is 422), whatever else it validates.
  codes.push('invalid_request');
  codes.push('rate_limited', 'internal_error', 'unavailable');
  const all: ZodOpenApiResponsesObject = { ...own };
  for (const code of codes) {
    const status = String(ERROR_STATUS[code]) as `4${string}`;
    if (!(status in all)) Object.assign(all, error(code));
  }
  // In status order, as a reader expects.
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b))) as ZodOpenApiResponsesObject;
}

/**
 * The document of these routes, in their order, with `servers` left to the
 * caller (see withServer). Built once per process: every request adds only
 * its own `servers`.
 */
export function assembleOpenApiDocument(version: string, routes: readonly DocumentedRoute[]) {
  const paths: ZodOpenApiPathsObject = {};
  for (const { route, doc } of routes) {
    const { query, path, body } = route.request ?? {};
    const operation: ZodOpenApiOperationObject = {
      operationId: route.name,
      summary: route.summary,
      description: doc.description,
      tags: [doc.tag],
      ...(route.auth ? {} : { security: doc.optionalKey ? [{}, { bearer: [] }] : [] }),
      requestParams: { ...(query ? { query } : {}), ...(path ? { path } : {}) },
      ...(body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: body, ...(doc.requestExamples ? { examples: doc.requestExamples } : {}) },
                // A PATCH body is a JSON merge patch (RFC 7396): its own media type is taken too.
                ...(route.method === 'PATCH' ? { 'application/merge-patch+json': { schema: body } } : {}),
              },
            },
          }
        : {}),
      responses: operationResponses({ route, doc }),
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    paths[route.path] = { ...(paths[route.path] ?? {}), [method]: operation };
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Library API',
        version,
        description: [
          'A searchable library of documents and memories per tenant and end user, answering questions from it.',
          '',
          'Every call but `GET /v1/health` and `GET /v1/openapi.json` takes `Authorization: Bearer <API_KEY>`. Every answer carries `x-request-id`; every error has the `Error` body, whose `code` goes with its HTTP status. An unknown path answers 404 `not_found`, a known path with another method 405 `method_not_allowed` with `Allow` (the `NotFound` and `MethodNotAllowed` responses).',
          '',
          'An operation takes only the query parameters it lists: any other is 422 `invalid_request` naming it (`lmit: unknown parameter`). `end_user_id` is a query parameter on GET, DELETE and PATCH and a body field on POST, nowhere else, but for `POST /v1/mcp`, whose query takes it (its body is a protocol message).',
          '',
          '`servers` is where this document was served: its origin, and on AWS the stage; every path starts with `/v1`.',
        ].join('\n'),
      },
      servers: [{ url: '/' }],
      tags: TAGS.map((t) => ({ ...t })),
      security: [{ bearer: [] }],
      paths,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer lib_...`.' },
        },
        headers: { RequestId: RequestIdHeader, RetryAfter: RetryAfterHeader } as never,
        // Components no operation's schema reaches: the routes' own (chat's stream events, which its
        // text/event-stream answer names) and the shapes the core checks (checkedByCore, the override below).
        schemas: Object.assign({}, ...routes.map(({ doc }) => doc.schemas), {
          Filter: s.FilterSchema,
          MetadataPatch: s.MetadataPatchSchema,
        }),
        // Operations list the others (each becomes a component on first use); a wrong method can meet any path.
        responses: { MethodNotAllowed: { ...errorResponses.method_not_allowed, id: undefined } },
      },
    },
    {
      // Batch items are validated one by one (a bad one is rejected on its own receipt), so the request schema
      // takes any items; a client sends capture items, and the description says so.
      override: (ctx) => {
        if (ctx.zodSchema === s.CaptureItems) {
          ctx.jsonSchema.items = { $ref: '#/components/schemas/CaptureItem' };
        }
        // Objects the core checks (schemas.ts, checkedByCore) are documented with the shape it takes.
        const documentedAs = s.CHECKED_BY_CORE.get(ctx.zodSchema);
        if (documentedAs) {
          const id = (z.globalRegistry.get(documentedAs) as { id?: string } | undefined)?.id;
          const description = ctx.jsonSchema.description;
          for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key];
          Object.assign(ctx.jsonSchema, {
            $ref: `#/components/schemas/${id}`,
            ...(description ? { description } : {}),
          });
        }
      },
    },
  );
  return document;
}

export type OpenApiDocument = ReturnType<typeof assembleOpenApiDocument>;

/** The document as served at one address: `servers` names it. */
export function withServer(document: OpenApiDocument, serverUrl: string | null): OpenApiDocument {
  return { ...document, servers: [{ url: serverUrl ?? '/', description: 'where this description was served' }] };
}
