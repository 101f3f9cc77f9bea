import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { headerValue } from './endpoint.js';

/** A strong validator for a fixed body: the first 27 characters of its SHA-256, base64url. */
export const etagOf = (body: string): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * A page's fixed file (HTML, script, stylesheet) with its ETag: a browser that
 * already has it (If-None-Match) gets a 304 and no body.
 */
export function staticResponse(
  event: APIGatewayProxyEvent,
  file: { body: string; etag: string; headers: Record<string, string> },
): APIGatewayProxyResult {
  const headers = { ...file.headers, etag: file.etag, 'x-content-type-options': 'nosniff' };
  const known = headerValue(event, 'if-none-match')
    ?.split(',')
    .map((tag) => tag.trim())
    .includes(file.etag);
  return known ? { statusCode: 304, headers, body: '' } : { statusCode: 200, headers, body: file.body };
}
