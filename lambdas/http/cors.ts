/**
 * CORS, one policy for both stacks (docs/api-notes.md, "CORS"): the operator
 * lists the exact origins a browser app may call the API from
 * (LIBRARY_CORS_ORIGINS locally, `cors.allowedOrigins` in the CDK config);
 * nothing is allowed by default. A request from an allowed origin gets the
 * CORS headers on its answer, errors included; a preflight from one is
 * answered 204 with the methods, headers and max age; any other origin gets
 * no allow header at all. Pure: the local gateway, the Lambda wiring and the
 * CDK construct (which renders the same values into API Gateway) share it.
 */

/** The variable that carries the allowed origins, comma-separated (the local server's and every API function's). */
export const CORS_ORIGINS_ENV = 'LIBRARY_CORS_ORIGINS';

/** Request headers a browser may send (the key, the JSON body's type, and the protocol version an MCP client sends to POST /v1/mcp after initialize). */
export const CORS_ALLOW_HEADERS = 'authorization,content-type,mcp-protocol-version';
/** Response headers a browser app may read beyond the safelisted ones (a downloaded file's name is in Content-Disposition). */
export const CORS_EXPOSE_HEADERS = 'x-request-id,retry-after,content-disposition';
/** How long a browser may cache a preflight's answer (seconds; Chromium caps at 7200). */
export const CORS_MAX_AGE_SECONDS = 7200;

/**
 * The operator's list, checked: each entry an exact origin (`scheme://host[:port]`,
 * no path, no trailing slash, no wildcard). Throws naming the bad entry and
 * where it came from. Empty or unset: no origin.
 */
export function parseCorsOrigins(raw: string | readonly string[] | undefined, source = CORS_ORIGINS_ENV): string[] {
  const entries = (typeof raw === 'string' ? raw.split(',') : [...(raw ?? [])]).map((o) => o.trim()).filter(Boolean);
  for (const entry of entries) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry) {
      throw new Error(
        `${source}: "${entry}" is not an exact origin; write scheme://host[:port] (e.g. https://app.example.com), without path, trailing slash or wildcard`,
      );
    }
  }
  return [...new Set(entries)];
}

export class CorsPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(readonly origins: readonly string[] = []) {
    this.allowed = new Set(origins);
  }

  /** Whether any origin is allowed: with none, CORS adds nothing anywhere. */
  get enabled(): boolean {
    return this.allowed.size > 0;
  }

  allows(origin: string | undefined): origin is string {
    return origin !== undefined && this.allowed.has(origin);
  }

  /**
   * Headers for an actual response (any status). An allowed origin: echoed,
   * with the exposed headers. Vary: Origin whenever a list is configured,
   * since the answer then depends on it (a shared cache must not hand one
   * origin's answer to another).
   */
  responseHeaders(origin: string | undefined): Record<string, string> {
    if (!this.enabled) return {};
    if (!this.allows(origin)) return { vary: 'Origin' };
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': CORS_EXPOSE_HEADERS,
      vary: 'Origin',
    };
  }

  /**
   * The answer to a preflight (OPTIONS) on a path serving `methods`: 204;
   * the allow headers only for an allowed origin.
   */
  preflightHeaders(origin: string | undefined, methods: readonly string[]): Record<string, string> {
    if (!this.allows(origin)) return this.responseHeaders(origin);
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': [...methods, 'OPTIONS'].join(','),
      'access-control-allow-headers': CORS_ALLOW_HEADERS,
      'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
      vary: 'Origin',
    };
  }
}

/**
 * A response's headers with the CORS headers added. Both may say what the
 * answer varies by (the chat's Accept, CORS's Origin): their Vary lists are
 * joined, not one written over the other.
 */
export function withCorsHeaders<V>(
  headers: Record<string, V> | undefined,
  corsHeaders: Record<string, string>,
): Record<string, V | string> {
  const merged: Record<string, V | string> = { ...(headers ?? {}), ...corsHeaders };
  const ownVary = Object.keys(headers ?? {}).find((key) => key.toLowerCase() === 'vary');
  if (ownVary === undefined || corsHeaders.vary === undefined) return merged;
  const names = [String(headers![ownVary]), corsHeaders.vary].flatMap((list) => list.split(',').map((n) => n.trim()));
  delete merged[ownVary];
  merged.vary = [...new Set(names.filter(Boolean))].join(', ');
  return merged;
}

/** A header of an API Gateway proxy event, whatever its case. */
export function eventHeader(
  headers: Record<string, string | undefined> | null | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? (headers[key] ?? undefined) : undefined;
}

/**
 * An API Gateway proxy handler whose every answer (success or error) carries
 * the CORS headers for the request's Origin. What a Lambda returns reaches the
 * browser untouched (API Gateway adds nothing to a proxy response), so on AWS
 * the functions add them; locally the gateway does (server.ts).
 */
export function withCors<
  E extends { headers?: Record<string, string | undefined> | null },
  R extends { headers?: Record<string, unknown> },
  C,
>(handler: (event: E, context: C) => Promise<R>, policy: CorsPolicy): (event: E, context: C) => Promise<R> {
  if (!policy.enabled) return handler;
  return async (event, context) => {
    const result = await handler(event, context);
    return {
      ...result,
      headers: withCorsHeaders(result.headers, policy.responseHeaders(eventHeader(event.headers, 'origin'))),
    };
  };
}
