import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('protocol');
});
afterAll(() => server.close());

function expectError(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_/);
  expect(res.body).toEqual({
    error: {
      code,
      message: expect.any(String),
      request_id: requestId,
      ...(res.body.error.retry_after !== undefined ? { retry_after: res.body.error.retry_after } : {}),
    },
  });
  // Never a stack trace or an internal name.
  expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules|sqlite|SELECT /i);
}

/**
 * Bytes written to the server on a raw socket, and what it answered until it closed the connection (or, with
 * `waitMs`, until then: a server still waiting for a body answers nothing).
 */
function rawExchange(request: string, waitMs?: number): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    if (waitMs !== undefined)
      setTimeout(() => {
        socket.destroy();
        resolve(received);
      }, waitMs);
  });
}

describe('HTTP protocol and errors', () => {
  it('serves health and OpenAPI without a key: health says only up or degraded and what runs', async () => {
    const health = await server.api('/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: 'ok',
      version: 'test',
      backend: 'local',
      embedder: { name: 'hashing-test-embedder', dimensions: 64 },
    });
    expect(health.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('adds the details to health for a valid key, checked as the authorizer checks it, and none for a wrong or revoked one', async () => {
    const key = await server.newKey('health-reader');
    const detailed = {
      status: 'ok',
      version: 'test',
      backend: 'local',
      embedder: { name: 'hashing-test-embedder', dimensions: 64, state: 'ok', detail: null },
      ingest: { backlog_documents: 0, backlog_passages: 0 },
      dependencies: { database: { state: 'ok', detail: null }, blobs: { state: 'ok', detail: null } },
    };
    expect((await server.api('/v1/health', { key })).body).toEqual(detailed);
    const anonymous = {
      status: 'ok',
      version: 'test',
      backend: 'local',
      embedder: { name: 'hashing-test-embedder', dimensions: 64 },
    };
    // A key of the right shape that no tenant holds, a malformed one, another scheme: anonymous, not 401 (health needs no key).
    for (const authorization of [
      `Bearer lib_${'Z'.repeat(40)}`,
      'Bearer not-a-key',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${key} extra`,
    ]) {
      const res = await server.api('/v1/health', { headers: { authorization } });
      expect(res.status, authorization).toBe(200);
      expect(res.body, authorization).toEqual(anonymous);
    }
    await server.stack.services.keys.revoke({ tenant: 'health-reader' });
    expect((await server.api('/v1/health', { key })).body).toEqual(anonymous);
  });

  it('describes every route in OpenAPI 3.1 from the validating schemas', async () => {
    const { body } = await server.api('/v1/openapi.json');
    expect(body.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/v1/capture', 'post'],
      ['/v1/capture/batch', 'post'],
      ['/v1/search', 'get'],
      ['/v1/grep', 'get'],
      ['/v1/documents', 'get'],
      ['/v1/documents/{id}', 'get'],
      ['/v1/documents/{id}', 'delete'],
      ['/v1/end-users', 'get'],
      ['/v1/end-users/{id}', 'delete'],
      ['/v1/health', 'get'],
    ]) {
      expect(body.paths[path!]?.[method!], `${method} ${path}`).toBeDefined();
    }
    const limit = body.paths['/v1/search'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
    expect(body.components.schemas.CaptureItem.properties.title.maxLength).toBe(512);
  });

  it.each([
    ['no header', undefined],
    ['a malformed header', 'Token abc'],
    ['an unknown key', `Bearer lib_${'A'.repeat(40)}`],
    ['a non-key', 'Bearer nonsense'],
  ])('refuses %s with 401', async (_label, authorization) => {
    const res = await server.api('/v1/documents', { headers: authorization ? { authorization } : {} });
    expectError(res, 401, 'unauthorized');
  });

  it('takes the Bearer scheme in any case, as HTTP has it', async () => {
    const issued = await server.stack.services.keys.create('any-case');
    for (const scheme of ['Bearer', 'bearer', 'BEARER'])
      expect(
        (await server.api('/v1/documents', { headers: { authorization: `${scheme} ${issued.api_key}` } })).status,
      ).toBe(200);
  });

  it('answers a request line too long to route with the error body and x-request-id, and a long filter in the URL reaches the route', async () => {
    const long = await server.api(`/v1/search?q=${'a'.repeat(70_000)}`, { key: await server.newKey('long-url') });
    expectError(long, 422, 'invalid_request');
    expect(long.body.error.message).toMatch(/request line and headers/);
    // A filter of 5,000 characters of JSON, 30 KB URL-encoded (past Node's default 16 KB): the route reads it.
    const filter = encodeURIComponent(JSON.stringify({ 'metadata.tag': { in: ['é'.repeat(5_000)] } }));
    const routed = await server.api(`/v1/search?q=x&filter=${filter}`, { key: await server.newKey('long-filter') });
    expect(routed.status).toBe(200);
  });

  it('still answers malformed HTTP with 400, as Node does', async () => {
    expect(await rawExchange('NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('answers a caller without a valid key before reading its body, and closes the connection', async () => {
    // Headers of a 5 MB capture, and not a byte of its body: the answer must not wait for it.
    const headers = (authorization: string, length: number) =>
      `POST /v1/capture HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    for (const authorization of ['', 'Authorization: Bearer lib_not_a_key\r\n']) {
      const answer = await rawExchange(headers(authorization, 5_000_000), 3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.toLowerCase()).toContain('connection: close');
    }
    // A declared body over the limit is refused before it is read too (with a valid key).
    const over = await rawExchange(headers(`Authorization: Bearer ${key}\r\n`, 6_000_001));
    expect(over).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('refuses a revoked key', async () => {
    const issued = await server.stack.services.keys.create('short-lived');
    expect((await server.api('/v1/documents', { key: issued.api_key })).status).toBe(200);
    await server.stack.services.keys.revoke({ keyId: issued.key_id });
    expectError(await server.api('/v1/documents', { key: issued.api_key }), 401, 'unauthorized');
  });

  it('answers 404 for an unknown route and 405 for a wrong method', async () => {
    expectError(await server.api('/v1/nothing-here', { key }), 404, 'not_found');
    expectError(await server.api('/v2/search', { key }), 404, 'not_found');
    const wrong = await server.api('/v1/search', { key, method: 'POST', body: {} });
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('refuses a body that is not JSON or not an object with 400', async () => {
    expectError(
      await server.api('/v1/capture', {
        key,
        method: 'POST',
        rawBody: '{"text": ',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    expectError(
      await server.api('/v1/capture', {
        key,
        method: 'POST',
        rawBody: '[1,2]',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    expectError(
      await server.api('/v1/capture', {
        key,
        method: 'POST',
        rawBody: '"text"',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
  });

  it('refuses a POST without Content-Type: application/json with 415', async () => {
    expectError(
      await server.api('/v1/capture', {
        key,
        method: 'POST',
        rawBody: '{"text":"a"}',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await server.api('/v1/capture', { key, method: 'POST', rawBody: '{"text":"a"}' }),
      415,
      'unsupported_media_type',
    );
  });

  it('accepts a JSON content type with a charset', async () => {
    const res = await server.api('/v1/capture', {
      key,
      method: 'POST',
      rawBody: '{"text":"charset ok"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('refuses a body over 6 MB with 413, storing nothing', async () => {
    const before = (await server.api('/v1/documents', { key })).body.count;
    // 6 MB is 6,000,000 bytes (the contract writes MiB where it means binary units): one byte over is refused.
    const justOver = await server.api('/v1/capture', {
      key,
      rawBody: JSON.stringify({ text: 'x' }).replace('}', `${' '.repeat(6_000_001 - 12)}}`),
      headers: { 'content-type': 'application/json' },
    });
    expect(Buffer.byteLength(JSON.stringify({ text: 'x' }).replace('}', `${' '.repeat(6_000_001 - 12)}}`))).toBe(
      6_000_001,
    );
    expectError(justOver, 413, 'payload_too_large');
    const res = await server.api('/v1/capture/batch', {
      key,
      body: { items: [{ text: 'x'.repeat(6 * 1024 * 1024) }] },
    });
    expectError(res, 413, 'payload_too_large');
    expect((await server.api('/v1/documents', { key })).body.count).toBe(before);
  });

  it('throttles per key with 429, Retry-After and retry_after', async () => {
    const throttled = await startTestServer({
      embedder: new HashingEmbedder(),
      rateLimit: { ratePerSecond: 1, burst: 3 },
    });
    try {
      const limitedKey = await throttled.newKey('busy');
      const otherKey = await throttled.newKey('quiet');
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await throttled.api('/v1/documents', { key: limitedKey })).status);
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      const res = await throttled.api('/v1/documents', { key: limitedKey });
      expectError(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.body.error.retry_after).toBe(Number(res.headers.get('retry-after')));
      // The same key with the scheme spelt another way is the same bucket.
      for (const scheme of ['bearer', 'BEARER'])
        expect(
          (await throttled.api('/v1/documents', { headers: { authorization: `${scheme} ${limitedKey}` } })).status,
        ).toBe(429);
      // Another key has its own bucket.
      expect((await throttled.api('/v1/documents', { key: otherKey })).status).toBe(200);
    } finally {
      await throttled.close();
    }
  });
});
