import type { RouteDefinition } from '../http/route.js';
import type { Access } from './access.js';

/**
 * What each lambdas/endpoints/<route>/contract.ts exports as `contract`: the
 * route over HTTP, with the schemas its handler checks the request with, and
 * the access its function is granted. Pure data (schemas, no handler code), so
 * the CDK stack reads it; the route's OpenAPI text is beside it in openapi.ts,
 * which only the OpenAPI document imports, so no Lambda bundle carries it.
 */
export interface RouteContract extends RouteDefinition {
  /** What its function may touch (lib/api-stack.ts grants it); none: full access and a synth warning. */
  readonly access?: Access;
}
