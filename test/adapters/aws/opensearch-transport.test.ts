import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mapOpenSearchError } from '../../../lambdas/adapters/aws/opensearch-index-requests.js';
import { createSignedTransport } from '../../../lambdas/adapters/aws/opensearch-transport.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';

/**
 * The Lambda functions' OpenSearch transport against a local HTTP server:
 * what it sends is what it signed (SigV4, service es), bodies and query
 * strings as the adapter gives them, and the answers and failures the adapter
 * maps (ignore, HEAD, retries, ResponseError, ConnectionError, TimeoutError).
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Reply = (seen: Seen, res: ServerResponse) => void;

const credentials = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'secret', sessionToken: 'token' };
let server: Server;
let node: string;
let seen: Seen[] = [];
let replies: Reply[] = [];
const json =
  (status: number, body: unknown): Reply =>
  (_s, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      (replies.shift() ?? json(200, { ok: true }))(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  replies = [];
});

const transport = (over: { requestTimeoutMs?: number; node?: string } = {}) =>
  createSignedTransport({
    region: 'eu-west-1',
    node: over.node ?? node,
    credentials: async () => credentials,
    maxRetries: 2,
    requestTimeoutMs: over.requestTimeoutMs ?? 2000,
  });

class TestSha256 {
  private readonly h;
  constructor(secret?: string | Uint8Array) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  }
  update(data: string | Uint8Array) {
    this.h.update(data);
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}

/** Signs again, server side, what arrived, at the time it claims: the same Authorization proves nothing changed after signing. */
async function expectSignedAsSent(request: Seen) {
  const url = new URL(request.url, node);
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))![1]!.split(';');
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name])]));
  const date = String(request.headers['x-amz-date']);
  const signingDate = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({ service: 'es', region: 'eu-west-1', credentials, sha256: TestSha256 as never });
  const again = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: request.body || undefined,
    },
    { signingDate },
  );
  expect(request.headers.authorization).toBe(again.headers.authorization);
  expect(String(request.headers.authorization)).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIDLOCAL\/\d{8}\/eu-west-1\/es\/aws4_request, SignedHeaders=.*host.*x-amz-content-sha256.*x-amz-date.*x-amz-security-token/,
  );
  expect(request.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(request.body).digest('hex'));
}

describe('signed OpenSearch transport', () => {
  it('sends a JSON body with its query string, signed as sent, and parses the JSON answer', async () => {
    replies.push(json(200, { hits: { hits: [] } }));
    const response = await transport().request({
      method: 'POST',
      path: '/library-passages-d16/_search',
      body: { query: { match_all: {} } },
      querystring: { ignore_unavailable: true, skip: undefined, fields: ['a', 'b'] },
    });
    expect(response).toEqual({ body: { hits: { hits: [] } }, statusCode: 200 });
    const [request] = seen;
    expect(request!.method).toBe('POST');
    expect(new URL(request!.url, node).pathname).toBe('/library-passages-d16/_search');
    expect(Object.fromEntries(new URL(request!.url, node).searchParams)).toEqual({
      ignore_unavailable: 'true',
      fields: 'a,b',
    });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({ query: { match_all: {} } });
    await expectSignedAsSent(request!);
  });

  it('sends a bulk body as NDJSON, each line ended', async () => {
    await transport().request({
      method: 'POST',
      path: '/_bulk',
      bulkBody: [{ index: { _index: 'i', _id: '1' } }, { text: 'héllo' }],
      querystring: { refresh: 'wait_for' },
    });
    const [request] = seen;
    expect(request!.headers['content-type']).toBe('application/x-ndjson');
    expect(request!.body).toBe('{"index":{"_index":"i","_id":"1"}}\n{"text":"héllo"}\n');
    await expectSignedAsSent(request!);
  });

  it('signs a request without a body, and a path naming several indices', async () => {
    await transport().request({ method: 'DELETE', path: '/library-items/_doc/doc_1' });
    expect(seen[0]!.body).toBe('');
    await expectSignedAsSent(seen[0]!);
    await transport().request({
      method: 'POST',
      path: '/library-passages-d16,library-items/_delete_by_query',
      body: { query: {} },
      querystring: { refresh: true, conflicts: 'proceed' },
    });
    expect(seen[1]!.url).toBe('/library-passages-d16,library-items/_delete_by_query?refresh=true&conflicts=proceed');
    await expectSignedAsSent(seen[1]!);
  });

  it('returns an ignored status, and HEAD as true or false', async () => {
    replies.push(
      json(400, { error: { type: 'resource_already_exists_exception' } }),
      (_s, res) => res.writeHead(200).end(),
      (_s, res) => res.writeHead(404).end(),
    );
    await expect(transport().request({ method: 'PUT', path: '/i', body: {} }, { ignore: [400] })).resolves.toEqual({
      body: { error: { type: 'resource_already_exists_exception' } },
      statusCode: 400,
    });
    await expect(transport().request({ method: 'HEAD', path: '/i' })).resolves.toEqual({ body: true, statusCode: 200 });
    await expect(transport().request({ method: 'HEAD', path: '/j' })).resolves.toEqual({
      body: false,
      statusCode: 404,
    });
  });

  it('throws a ResponseError for any other error status, which the adapter does not take for unavailability', async () => {
    replies.push(json(400, { error: { type: 'mapper_parsing_exception' } }));
    const error = await transport()
      .request({ method: 'POST', path: '/i/_doc', body: {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ResponseError',
      statusCode: 400,
      meta: { statusCode: 400 },
      message: expect.stringContaining('mapper_parsing_exception'),
    });
    expect(mapOpenSearchError('x', error)).toBe(error);
  });

  it('retries 502/503/504 up to twice, then reports 503 as unavailable; 429 is not retried', async () => {
    replies.push(json(503, {}), json(502, {}), json(200, { ok: 1 }));
    await expect(transport().request({ method: 'GET', path: '/' })).resolves.toEqual({
      body: { ok: 1 },
      statusCode: 200,
    });
    expect(seen).toHaveLength(3);

    seen = [];
    replies.push(json(503, {}), json(503, {}), json(503, {}));
    const error = await transport()
      .request({ method: 'GET', path: '/' })
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(mapOpenSearchError('x', error)).toBeInstanceOf(BackendUnavailableError);

    seen = [];
    replies.push(json(429, {}));
    const throttled = await transport()
      .request({ method: 'GET', path: '/' })
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(mapOpenSearchError('x', throttled)).toBeInstanceOf(BackendUnavailableError);
  });

  it('names a timeout TimeoutError and a refused connection ConnectionError, both unavailability, after retrying', async () => {
    replies.push(
      () => undefined,
      () => undefined,
      () => undefined,
    );
    const timeout = await transport({ requestTimeoutMs: 100 })
      .request({ method: 'GET', path: '/' })
      .catch((e: unknown) => e);
    expect(timeout).toMatchObject({ name: 'TimeoutError' });
    expect(seen).toHaveLength(3);
    expect(mapOpenSearchError('x', timeout)).toBeInstanceOf(BackendUnavailableError);

    const refused = await transport({ node: 'http://127.0.0.1:1' })
      .request({ method: 'GET', path: '/' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'ConnectionError' });
    expect(mapOpenSearchError('x', refused)).toBeInstanceOf(BackendUnavailableError);
  });

  it('refuses a prototype-poisoning answer', async () => {
    replies.push((_s, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"a":{"__proto__":{"polluted":true}}}');
    });
    await expect(transport().request({ method: 'GET', path: '/' })).rejects.toThrow(/__proto__/);
  });
});
