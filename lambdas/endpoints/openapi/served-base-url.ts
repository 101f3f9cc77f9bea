import type { APIGatewayProxyEvent } from 'aws-lambda';
import { contract } from './contract.js';

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const BASE_PATH = /^(?:\/[A-Za-z0-9._~-]+)*$/;
const DOCUMENT_PATH = contract.path;

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? (headers[key] ?? undefined) : undefined;
}

/**
 * The API's base URL as the caller reached it, from the request: the scheme
 * (X-Forwarded-Proto, which API Gateway sets; else http locally and https on
 * AWS), the Host header, and what precedes /v1/openapi.json in the path the
 * caller requested (requestContext.path: on API Gateway's own domain the
 * stage, `/prod`; under a custom domain its base path; locally nothing).
 * Null when the Host header is missing or not a host name (then `servers`
 * is `/`).
 */
export function servedBaseUrl(event: APIGatewayProxyEvent): string | null {
  const host = header(event, 'host')?.trim();
  if (!host || !HOST.test(host)) return null;
  const stage = event.requestContext?.stage;
  const forwarded = header(event, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme =
    forwarded === 'http' || forwarded === 'https' ? forwarded : stage === 'local' || !stage ? 'http' : 'https';
  const requested = event.requestContext?.path ?? event.path ?? '';
  let base = '';
  if (requested.endsWith(DOCUMENT_PATH)) base = requested.slice(0, -DOCUMENT_PATH.length);
  else if (/\.execute-api\.[^.]+\.amazonaws\.com(?::\d+)?$/.test(host) && stage) base = `/${stage}`;
  if (!BASE_PATH.test(base)) base = '';
  return `${scheme}://${host}${base}`;
}
