import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { CORS_EXPOSE_HEADERS } from '../../lambdas/http/cors.js';

/** The contract's error body, filled by API Gateway ($context variables are substituted in gateway response templates). */
export const errorTemplate = (code: string, message: string, retryAfter?: number) =>
  `{"error":{"code":"${code}","message":${message},"request_id":"$context.requestId"${retryAfter !== undefined ? `,"retry_after":${retryAfter}` : ''}}}`;

const quoted = (text: string) => JSON.stringify(text);
const GATEWAY_MESSAGE = '$context.error.messageString';

interface ResponseSpec {
  readonly type: apigateway.ResponseType;
  /** Unset: keep the status API Gateway chose. */
  readonly status?: string;
  readonly code: string;
  readonly message: string;
  readonly retryAfter?: number;
}

/**
 * Every response API Gateway makes itself (before or instead of a function)
 * rewritten to the contract's error body with the request id: 401 for a
 * missing, malformed, unknown or revoked key; 404 for an unknown route (API
 * Gateway reports it as a missing token, 403); 413; 415; 429 with Retry-After
 * and retry_after; 503 with Retry-After when the authorizer or a function
 * cannot be reached; and the 4XX/5XX defaults.
 */
export const GATEWAY_RESPONSES: readonly ResponseSpec[] = [
  {
    type: apigateway.ResponseType.UNAUTHORIZED,
    status: '401',
    code: 'unauthorized',
    message: quoted('missing, malformed, unknown or revoked API key'),
  },
  {
    type: apigateway.ResponseType.ACCESS_DENIED,
    status: '401',
    code: 'unauthorized',
    message: quoted('missing, malformed, unknown or revoked API key'),
  },
  {
    type: apigateway.ResponseType.INVALID_API_KEY,
    status: '401',
    code: 'unauthorized',
    message: quoted('this API key is not enabled for the API'),
  },
  {
    type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: '404',
    code: 'not_found',
    message: quoted('no such route'),
  },
  {
    type: apigateway.ResponseType.RESOURCE_NOT_FOUND,
    status: '404',
    code: 'not_found',
    message: quoted('no such route'),
  },
  {
    type: apigateway.ResponseType.REQUEST_TOO_LARGE,
    status: '413',
    code: 'payload_too_large',
    message: quoted('request body over 6 MB'),
  },
  {
    type: apigateway.ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: '415',
    code: 'unsupported_media_type',
    message: quoted('Content-Type must be application/json'),
  },
  {
    type: apigateway.ResponseType.THROTTLED,
    status: '429',
    code: 'rate_limited',
    message: quoted('over the rate for this API key'),
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.QUOTA_EXCEEDED,
    status: '429',
    code: 'rate_limited',
    message: quoted('over the quota for this API key'),
    retryAfter: 60,
  },
  {
    type: apigateway.ResponseType.AUTHORIZER_FAILURE,
    status: '503',
    code: 'unavailable',
    message: quoted('the key check is unavailable; safe to retry'),
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    status: '503',
    code: 'unavailable',
    message: quoted('the key check is unavailable; safe to retry'),
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.INTEGRATION_FAILURE,
    status: '503',
    code: 'unavailable',
    message: quoted('a backend is unavailable; safe to retry'),
    retryAfter: 1,
  },
  {
    type: apigateway.ResponseType.INTEGRATION_TIMEOUT,
    status: '503',
    code: 'unavailable',
    message: quoted('a backend timed out; safe to retry'),
    retryAfter: 1,
  },
  { type: apigateway.ResponseType.DEFAULT_4XX, code: 'invalid_request', message: GATEWAY_MESSAGE },
  {
    type: apigateway.ResponseType.DEFAULT_5XX,
    status: '500',
    code: 'internal_error',
    message: quoted('internal error; nothing half-written was kept'),
  },
];

/**
 * The CORS headers on the gateway's own answers (the authorizer's 401, the
 * usage plan's 429, 404, 5XX...), so a browser app reads those errors too.
 * A gateway response maps headers statically or from the request; it cannot
 * choose per origin. One allowed origin: named. Several: the request's Origin
 * echoed (the one case where an unlisted origin can read an error body that
 * API Gateway made itself: a code, a message and a request id, no data; the
 * functions' answers and the preflights stay exact; docs/api-notes.md).
 */
export function gatewayCorsHeaders(origins: readonly string[]): Record<string, string> {
  if (!origins.length) return {};
  return {
    'Access-Control-Allow-Origin': origins.length === 1 ? `'${origins[0]}'` : 'method.request.header.Origin',
    'Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS}'`,
    Vary: "'Origin'",
  };
}

export class GatewayResponses extends Construct {
  constructor(
    scope: Construct,
    id: string,
    props: { readonly api: apigateway.RestApi; readonly corsOrigins?: readonly string[] },
  ) {
    super(scope, id);
    const cors = gatewayCorsHeaders(props.corsOrigins ?? []);
    for (const spec of GATEWAY_RESPONSES) {
      props.api.addGatewayResponse(spec.type.responseType, {
        type: spec.type,
        statusCode: spec.status,
        responseHeaders: {
          'Content-Type': "'application/json'",
          ...(spec.retryAfter !== undefined ? { 'Retry-After': `'${spec.retryAfter}'` } : {}),
          ...cors,
        },
        templates: { 'application/json': errorTemplate(spec.code, spec.message, spec.retryAfter) },
      });
    }
  }
}
