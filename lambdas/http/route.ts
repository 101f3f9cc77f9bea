import type { $ZodObject, $ZodType } from 'zod/v4/core';

/**
 * What a route is over HTTP. Each route's contract
 * (lambdas/endpoints/<route>/contract.ts) is one; the route table
 * (lambdas/endpoints/routes.ts) lists them for the CDK stack, the local server and the
 * OpenAPI document (http/openapi.ts).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The schemas a request is checked with (http/endpoint.ts) and the OpenAPI document shows. */
export interface RouteRequest {
  readonly query?: $ZodObject;
  /** The path parameters. */
  readonly path?: $ZodObject;
  /** The JSON body. */
  readonly body?: $ZodType;
}

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
  readonly request?: RouteRequest;
}
