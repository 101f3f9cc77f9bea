import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deriveFromSecretsKey,
  END_USER_LOG_KEY_PURPOSE,
  loadSecretsKey,
} from '../../lambdas/adapters/local/aes-secret-cipher.js';
import { ROUTES, type RouteName } from '../../lambdas/endpoints/routes.js';
import { type ApiHandler, createEndpoint } from '../../lambdas/http/endpoint.js';
import { baseLogger, hashEndUser, logger } from '../../lambdas/http/observability.js';
import { startLocalServer } from '../../lambdas/local-gateway/server.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * The server's log, read as an operator reads it: Powertools Logger writes
 * one JSON object per line to stdout (stderr for warnings and errors),
 * captured here in process. Every line
 * of a request must carry that request's id (concurrent requests share one
 * process and one logger), every request leaves exactly one access line,
 * and no line holds an API key, a secret or the text of a document.
 */
let lines: Record<string, unknown>[] = [];
let raw = '';

beforeEach(() => {
  lines = [];
  raw = '';
  // vitest.config.ts silences the logger; these tests read it.
  baseLogger.setLogLevel('DEBUG');
  // Powertools writes debug and info to stdout, warn and error to stderr.
  const capture = ((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    raw += text;
    for (const line of text.split('\n')) {
      if (!line.trim().startsWith('{')) continue;
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not one of the logger's lines
      }
    }
    return true;
  }) as typeof process.stdout.write;
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
  baseLogger.setLogLevel('SILENT');
});

const accessLines = () => lines.filter((l) => l.message === 'access');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('request log context under concurrency', () => {
  let server: Awaited<ReturnType<typeof startLocalServer>>;

  beforeAll(async () => {
    // Every route answers with a handler that logs several times around random waits, so
    // the lines of hundreds of requests interleave in one process.
    const probe: ApiHandler = createEndpoint({
      auth: true,
      async run({ requestId }) {
        for (let i = 0; i < 3; i++) {
          await pause(Math.random() * 15);
          logger.info('probe', { expected: requestId, step: i });
        }
        return { status: 200, body: { ok: true } };
      },
    });
    const handlers = Object.fromEntries(ROUTES.map((r) => [r.name, probe])) as Record<RouteName, ApiHandler>;
    server = await startLocalServer({
      handlers,
      authorizer: async (event) => {
        await pause(Math.random() * 5);
        const tenant = event.authorizationToken.replace('Bearer ', '');
        return {
          principalId: tenant,
          context: { tenantId: tenant },
          policyDocument: { Version: '2012-10-17', Statement: [] },
        };
      },
      port: 0,
      rateLimit: { ratePerSecond: 100_000, burst: 100_000 },
    });
  });
  afterAll(() => server.close());

  it('every line of 1,000 concurrent requests carries its own request id, and each request one access line', async () => {
    const responses = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const tenant = `ten_${i % 7}`;
        const response = await fetch(`${server.url}/v1/documents`, { headers: { authorization: `Bearer ${tenant}` } });
        await response.text();
        return { requestId: response.headers.get('x-request-id')!, tenant, status: response.status };
      }),
    );
    expect(new Set(responses.map((r) => r.requestId)).size).toBe(1000);

    const probes = lines.filter((l) => l.message === 'probe');
    expect(probes).toHaveLength(3000);
    for (const line of probes) {
      expect(line.requestId).toBe(line.expected);
      // The Lambda context's request id is this request's too (it was another's when the logger's keys were shared).
      expect(line.function_request_id).toBe(line.expected);
    }
    const byRequest = new Map(responses.map((r) => [r.requestId, r]));
    for (const line of probes) expect(line.tenantId).toBe(byRequest.get(line.requestId as string)!.tenant);

    const access = accessLines();
    expect(access).toHaveLength(1000);
    for (const line of access) {
      const response = byRequest.get(line.requestId as string)!;
      expect(response).toBeDefined();
      expect(line).toMatchObject({
        status: 200,
        route: 'GET /v1/documents',
        method: 'GET',
        tenantId: response.tenant,
        function_request_id: response.requestId,
      });
      expect(line.durationMs).toEqual(expect.any(Number));
    }
  });

  it('requests no handler sees (unknown route, no key) leave an access line too', async () => {
    const notFound = await fetch(`${server.url}/v1/nowhere/secret-path-value?token=abc`);
    const noKey = await fetch(`${server.url}/v1/documents`);
    await Promise.all([notFound.text(), noKey.text()]);
    const access = accessLines();
    expect(access).toHaveLength(2);
    expect(access.find((l) => l.requestId === notFound.headers.get('x-request-id'))).toMatchObject({
      status: 404,
      method: 'GET',
    });
    expect(access.find((l) => l.requestId === noKey.headers.get('x-request-id'))).toMatchObject({
      status: 401,
      route: 'GET /v1/documents',
    });
    // The raw path and the query are not logged (they hold what the caller typed).
    expect(raw).not.toContain('secret-path-value');
    expect(raw).not.toContain('token=abc');
  });
});

describe('the local server log, end to end', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ embedder: new HashingEmbedder() });
  });
  afterAll(() => server.close());

  it('names tenant, route, status and the end user by a keyed hash; never a key, a secret or document text', async () => {
    const issued = await server.stack.services.keys.create('observed');
    const key = issued.api_key;
    const endUser = 'alice@example.com';
    const marker = 'zanzibar-quokka-7781';
    const bogusKey = `lib_${'q'.repeat(40)}`;

    const calls: Array<Promise<{ requestId: string; status: number; kind: string }>> = [];
    const call = (kind: string, path: string, init: Parameters<TestServer['api']>[1]) =>
      calls.push(
        server.api(path, init).then((r) => ({ requestId: r.headers.get('x-request-id')!, status: r.status, kind })),
      );
    for (let i = 0; i < 20; i++) {
      call('capture', '/v1/capture', {
        key,
        body: {
          text: `note ${i}: ${marker} the secret formula is ${i * 7}`,
          end_user_id: endUser,
          title: `${marker} title`,
        },
      });
      call('search', `/v1/search?q=${marker}&end_user_id=${encodeURIComponent(endUser)}`, { key });
      call('grep', `/v1/grep?pattern=${marker}&end_user_id=${encodeURIComponent(endUser)}`, { key });
      call('bogus', '/v1/documents', { key: bogusKey });
    }
    call('batch', '/v1/capture/batch', {
      key,
      body: {
        end_user_id: endUser,
        items: [{ text: `${marker} batch one` }, { text: `${marker} batch one` }, { text: '' }],
      },
    });
    call('invalid', '/v1/capture', {
      key,
      rawBody: `{"text": "${marker} unterminated`,
      headers: { 'content-type': 'application/json' },
    });
    const results = await Promise.all(calls);
    const erased = await server.api(`/v1/end-users/${encodeURIComponent(endUser)}`, { key, method: 'DELETE' });
    expect(erased.status).toBe(200);
    await server.stack.settled();

    const access = accessLines();
    expect(access).toHaveLength(results.length + 1);
    // Keyed with the data folder's own secret (derived from secrets.key), not a hash anyone can recompute from a guess.
    const folderKey = deriveFromSecretsKey(loadSecretsKey(server.dataDir, undefined), END_USER_LOG_KEY_PURPOSE);
    const hashed = hashEndUser(issued.tenant_id, endUser, folderKey);
    expect(hashed).toMatch(/^[0-9a-f]{16}$/);
    const unkeyed = createHash('sha256')
      .update(issued.tenant_id)
      .update('\u0000')
      .update(endUser)
      .digest('hex')
      .slice(0, 16);
    expect(hashed).not.toBe(unkeyed);
    expect(raw).not.toContain(unkeyed);
    for (const result of results) {
      const mine = access.filter((l) => l.requestId === result.requestId);
      expect(mine, result.kind).toHaveLength(1);
      const line = mine[0]!;
      expect(line.status).toBe(result.status);
      if (result.kind === 'bogus') {
        expect(line.status).toBe(401);
        expect(line.tenantId).toBeUndefined();
        continue;
      }
      expect(line.tenantId).toBe(issued.tenant_id);
      if (result.kind !== 'invalid') expect(line.endUser).toBe(hashed);
      if (result.kind === 'capture')
        expect(line).toMatchObject({ route: 'POST /v1/capture', status: 201, captures: { created: 1 } });
      if (result.kind === 'batch')
        expect(line).toMatchObject({
          route: 'POST /v1/capture/batch',
          captures: { created: 1, deduped: 1, rejected: 1 },
          rejections: { empty_content: 1 },
        });
    }
    expect(access.find((l) => l.requestId === erased.headers.get('x-request-id'))).toMatchObject({
      route: 'DELETE /v1/end-users/{id}',
      endUser: hashed,
      status: 200,
    });

    // Every line written during a request carries that request's id, and its Lambda context agrees.
    for (const line of lines) {
      if (line.function_request_id !== undefined) expect(line.function_request_id).toBe(line.requestId);
    }
    // Nothing secret, nothing the caller wrote.
    for (const forbidden of [
      key,
      bogusKey,
      key.slice(4, 20),
      marker,
      'secret formula',
      endUser,
      encodeURIComponent(endUser),
    ]) {
      expect(raw, forbidden).not.toContain(forbidden);
    }
  });
});

describe('the endpoint on its own (as on Lambda)', () => {
  it('writes its own access line in a context of its own when no server made one', async () => {
    const handler = createEndpoint({
      auth: false,
      async run() {
        logger.warn('inside');
        return { status: 204, body: null };
      },
    });
    const event = (requestId: string) =>
      ({
        resource: '/v1/health',
        httpMethod: 'GET',
        headers: {},
        queryStringParameters: null,
        pathParameters: null,
        body: null,
        isBase64Encoded: false,
        requestContext: { requestId },
      }) as unknown as APIGatewayProxyEvent;
    const context = (id: string) =>
      ({ awsRequestId: id, functionName: 'health', invokedFunctionArn: 'arn', memoryLimitInMB: '512' }) as never;
    await Promise.all([handler(event('api-1'), context('lambda-1')), handler(event('api-2'), context('lambda-2'))]);
    const inside = lines.filter((l) => l.message === 'inside');
    expect(inside.map((l) => [l.requestId, l.function_request_id]).sort()).toEqual([
      ['api-1', 'lambda-1'],
      ['api-2', 'lambda-2'],
    ]);
    const access = accessLines();
    expect(access.map((l) => [l.requestId, l.function_request_id, l.status, l.route]).sort()).toEqual([
      ['api-1', 'lambda-1', 204, 'GET /v1/health'],
      ['api-2', 'lambda-2', 204, 'GET /v1/health'],
    ]);
  });
});
