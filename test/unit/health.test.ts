import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import { createHandler, type HealthDeps } from '../../lambdas/endpoints/health/handler.js';
import { baseLogger } from '../../lambdas/http/observability.js';

/**
 * GET /v1/health: what an anonymous caller reads, what a valid key adds, and
 * what the operator's log is told (the logger's JSON lines, captured as an
 * operator reads them).
 */
const KEY = `lib_${'K'.repeat(40)}`;
const UPSTREAM = 'the embedding server did not answer (connect ECONNREFUSED http://10.20.30.40:11434/v1/embeddings)';

let lines: Array<Record<string, unknown>> = [];
beforeEach(() => {
  lines = [];
  baseLogger.setLogLevel('DEBUG');
  const capture = ((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n'))
      if (line.trim().startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  }) as typeof process.stdout.write;
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
  baseLogger.setLogLevel('SILENT');
});

const context = { awsRequestId: 'r', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const call = async (handler: ReturnType<typeof createHandler>, headers: Record<string, string> = {}) => {
  const response = await handler(
    {
      headers,
      queryStringParameters: null,
      pathParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'req_h' },
    } as unknown as APIGatewayProxyEvent,
    context,
  );
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, any> };
};

function deps(over: Partial<HealthDeps> & { embedderDetail?: string | null } = {}): HealthDeps {
  const detail = over.embedderDetail ?? null;
  return {
    backend: 'local',
    version: '1.0.0',
    embedder: {
      name: 'openai-compatible:nomic',
      dimensions: 768,
      health: () => (detail ? { state: 'degraded', detail } : { state: 'ok', detail: null }),
    },
    backlog: () => ({ documents: 7, passages: 90 }),
    dependencies: { database: async () => undefined },
    keys: { authenticate: async (key) => (key === KEY ? 'ten_1' : null) },
    ...over,
  };
}

describe('GET /v1/health', () => {
  it('tells an anonymous caller only up or degraded and what runs, never the upstream error or its address', async () => {
    const handler = createHandler(deps({ embedderDetail: UPSTREAM }));
    const anonymous = await call(handler);
    expect(anonymous).toEqual({
      status: 200,
      body: {
        status: 'degraded',
        version: '1.0.0',
        backend: 'local',
        embedder: { name: 'openai-compatible:nomic', dimensions: 768 },
      },
    });
    expect(JSON.stringify(anonymous.body)).not.toMatch(/10\.20\.30\.40|ECONNREFUSED|11434/);
  });

  it('adds the reasons, the backlog and the stores for a valid key', async () => {
    const keyed = await call(createHandler(deps({ embedderDetail: UPSTREAM })), { Authorization: `Bearer ${KEY}` });
    expect(keyed.body).toEqual({
      status: 'degraded',
      version: '1.0.0',
      backend: 'local',
      embedder: { name: 'openai-compatible:nomic', dimensions: 768, state: 'degraded', detail: UPSTREAM },
      ingest: { backlog_documents: 7, backlog_passages: 90 },
      dependencies: { database: { state: 'ok', detail: null } },
    });
  });

  it('answers anonymously when the key check fails (the tenant store down), rather than failing health', async () => {
    const handler = createHandler(
      deps({
        keys: {
          authenticate: async () => {
            throw new BackendUnavailableError('tenants.get: throttled');
          },
        },
      }),
    );
    const res = await call(handler, { authorization: `Bearer ${KEY}` });
    expect(res).toEqual({
      status: 200,
      body: {
        status: 'ok',
        version: '1.0.0',
        backend: 'local',
        embedder: { name: 'openai-compatible:nomic', dimensions: 768 },
      },
    });
  });

  it('without a key store every caller is anonymous', async () => {
    const res = await call(createHandler(deps({ keys: undefined })), { authorization: `Bearer ${KEY}` });
    expect(Object.keys(res.body).sort()).toEqual(['backend', 'embedder', 'status', 'version']);
  });

  it("tells the operator's log the details whenever the state changes, not on every poll", async () => {
    let detail: string | null = null;
    const handler = createHandler(
      deps({
        embedder: {
          name: 'e',
          dimensions: 8,
          health: () => (detail ? { state: 'degraded', detail } : { state: 'ok', detail: null }),
        },
      }),
    );
    await call(handler);
    detail = UPSTREAM;
    await call(handler);
    await call(handler);
    await call(handler);
    detail = null;
    await call(handler);
    const health = lines.filter((l) => typeof l.message === 'string' && l.message.startsWith('health is'));
    expect(health.map((l) => [l.message, l.level])).toEqual([
      ['health is ok', 'INFO'],
      ['health is degraded', 'WARN'],
      ['health is ok', 'INFO'],
    ]);
    expect(health[1]).toMatchObject({
      health: {
        status: 'degraded',
        embedder: { state: 'degraded', detail: UPSTREAM },
        ingest: { backlog_documents: 7 },
      },
    });
  });
});
