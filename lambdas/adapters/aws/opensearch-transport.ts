import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { stringify } from 'node:querystring';
import { SignatureV4 } from '@smithy/signature-v4';
import type { OpenSearchRequest, OpenSearchTransport } from './opensearch-index-requests.js';
import { Sha256 } from './sha256.js';

/**
 * The one call the OpenSearch adapter makes (OpenSearchTransport), over
 * node:https with SigV4 (service `es`) signing by the AWS SDK's own signer,
 * which every function already bundles. It keeps the behaviour of the
 * opensearch-js transport the adapter was written against (JSON and NDJSON
 * bodies, `ignore`, HEAD 404 as false, retries of connection failures,
 * timeouts and 502/503/504, errors named ConnectionError, TimeoutError and
 * ResponseError with `statusCode` and `meta.statusCode`) without the client
 * package: its transport, connection pool, serializer (JSON11) and signer
 * (aws4) weighed about 50 KB in every bundle that searches.
 */
export interface SignedTransportOptions {
  region: string;
  /** https://host of the domain (http:// only in tests). */
  node: string;
  /** A credential provider (memoized and refreshed by the SDK's default chain). */
  credentials: SignatureV4Init['credentials'];
  requestTimeoutMs?: number;
  /** Further attempts after a connection failure, a timeout or a 502/503/504. */
  maxRetries?: number;
}

type SignatureV4Init = ConstructorParameters<typeof SignatureV4>[0];

export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

export class ResponseError extends Error {
  readonly meta: { statusCode: number; body: unknown };
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
  ) {
    const type = (body as { error?: { type?: string } } | null)?.error?.type;
    super(`OpenSearch answered ${statusCode}${type ? ` (${type})` : ''}`);
    this.name = 'ResponseError';
    this.meta = { statusCode, body };
  }
}

/** OpenSearch refuses query keys without a value; arrays are comma-separated lists. */
function queryOf(querystring: OpenSearchRequest['querystring']): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(querystring ?? {})) {
    if (value !== undefined && value !== null) query[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return query;
}

function bodyOf(params: OpenSearchRequest): { body?: string; contentType?: string } {
  if (params.body != null) {
    const body = typeof params.body === 'string' ? params.body : JSON.stringify(params.body);
    return body === '' ? {} : { body, contentType: 'application/json' };
  }
  if (params.bulkBody != null) {
    const body = params.bulkBody.map((line) => `${typeof line === 'string' ? line : JSON.stringify(line)}\n`).join('');
    return body === '' ? {} : { body, contentType: 'application/x-ndjson' };
  }
  return {};
}

/** JSON.parse refusing prototype poisoning, as the client's serializer does by default. */
function parseJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (
      key === '__proto__' ||
      (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)
    ) {
      throw new SyntaxError(`the response holds a forbidden "${key}" property`);
    }
    return value;
  });
}

const RETRIED_STATUSES = new Set([502, 503, 504]);

export function createSignedTransport(options: SignedTransportOptions): OpenSearchTransport {
  const url = new URL(options.node);
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const maxRetries = options.maxRetries ?? 2;
  const signer = new SignatureV4({
    service: 'es',
    region: options.region,
    credentials: options.credentials,
    sha256: Sha256,
  });

  async function attempt(
    params: OpenSearchRequest,
  ): Promise<{ statusCode: number; headers: IncomingMessage['headers']; text: string }> {
    const { body, contentType } = bodyOf(params);
    const query = queryOf(params.querystring);
    const headers: Record<string, string> = { host: url.host };
    if (contentType) headers['content-type'] = contentType;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const signed = await signer.sign({
      method: params.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: params.path,
      query,
      headers,
      body,
    });
    const search = stringify(query);
    return new Promise((resolve, reject) => {
      const request = send(
        {
          agent,
          method: params.method,
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port || undefined,
          path: `${params.path}${search ? `?${search}` : ''}`,
          headers: signed.headers,
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => reject(new ConnectionError(error.message, { cause: error })));
          response.on('end', () =>
            resolve({
              statusCode: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('timeout', () =>
        request.destroy(new TimeoutError(`no answer from OpenSearch within ${timeoutMs} ms`)),
      );
      request.on('error', (error) =>
        reject(error instanceof TimeoutError ? error : new ConnectionError(error.message, { cause: error })),
      );
      request.end(body);
    });
  }

  return {
    async request(params, requestOptions) {
      const isHead = params.method === 'HEAD';
      for (let attempts = 0; ; attempts++) {
        let response: Awaited<ReturnType<typeof attempt>>;
        try {
          response = await attempt(params);
        } catch (error) {
          if ((error instanceof ConnectionError || error instanceof TimeoutError) && attempts < maxRetries) continue;
          throw error;
        }
        const { statusCode, headers, text } = response;
        const ignored = (requestOptions?.ignore ?? []).includes(statusCode) || (isHead && statusCode === 404);
        if (!ignored && RETRIED_STATUSES.has(statusCode) && attempts < maxRetries) continue;
        const json = /application\/(json|vnd\.opensearch\+json)/.test(headers['content-type'] ?? '');
        let body: unknown = isHead ? statusCode < 400 : text;
        if (json && !isHead && text !== '') body = parseJson(text);
        if (!ignored && statusCode >= 400) throw new ResponseError(statusCode, body);
        if (isHead && statusCode === 404) body = false;
        return { body, statusCode };
      }
    },
  };
}
