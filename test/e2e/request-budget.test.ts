import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { BUDGET_RESERVE_MS } from '../../lambdas/core/capture.js';
import type { Embedder } from '../../lambdas/core/ports.js';
import { createHandler as captureHandler } from '../../lambdas/endpoints/capture/handler.js';
import { createHandler as batchHandler } from '../../lambdas/endpoints/capture-batch/handler.js';
import { RESPONSE_MARGIN_MS } from '../../lambdas/http/endpoint.js';
import { coreHarness } from '../support/core-harness.js';
import { Gate, gatedEmbedder } from '../support/gated.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/**
 * The request budget end to end through the capture handlers: the context
 * API Gateway (or the local gateway) gives says how long is left; the
 * answer must match what is stored, then and later.
 */
const tenantId = 'ten_budget_e2e';
const shared = { tenantId, endUserId: null };

function event(body: unknown): APIGatewayProxyEvent {
  return {
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: `req_${Math.random().toString(36).slice(2)}`, authorizer: { tenantId } },
  } as unknown as APIGatewayProxyEvent;
}

/** A Lambda context with `ms` left, counting down like the real one. */
function contextWith(ms: number): Context {
  const end = Date.now() + ms;
  return {
    awsRequestId: 'local',
    functionName: 'capture',
    getRemainingTimeInMillis: () => Math.max(0, end - Date.now()),
  } as unknown as Context;
}

/** Documents, and index hits for a word, in the tenant's shared library. */
async function stored(h: ReturnType<typeof coreHarness>, word: string) {
  const documents = await h.services.documents.list(shared, { limit: 100 });
  return {
    documents: documents.items.length,
    hits: (await h.ports.index.keywordSearch(shared, { text: word, limit: 5 })).length,
  };
}

describe('request budget through the capture handlers', () => {
  it('a hung embedder outlives the budget: 201 created, the document exists processing, and it becomes ready', async () => {
    const gate = new Gate();
    // An embedder that takes a moment, as real ones do (an instant one could finish the queued work before the receipt is read).
    const inner = new HashingEmbedder();
    const slow: Embedder = {
      name: inner.name,
      dimensions: inner.dimensions,
      embed: (texts) => sleep(300).then(() => inner.embed(texts)),
    };
    const h = coreHarness({ embedder: gatedEmbedder(slow, gate) });
    const handler = captureHandler(h.services);
    const started = Date.now();
    const response = await handler(
      event({ text: 'a capture racing its budget: wombat' }),
      contextWith(RESPONSE_MARGIN_MS + BUDGET_RESERVE_MS + 400),
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(response.statusCode).toBe(201);
    const receipt = JSON.parse(response.body);
    expect(receipt).toMatchObject({ ok: true, status: 'created' });
    expect(receipt.detail).toMatch(/time budget/);
    expect((await h.services.documents.get(shared, receipt.id)).status).toBe('processing');
    await h.drain.whenIdle();
    expect(await h.services.documents.get(shared, receipt.id)).toMatchObject({
      status: 'ready',
      findable_by_meaning: true,
    });
    gate.open();
    await sleep(100);
    expect(await h.services.documents.get(shared, receipt.id)).toMatchObject({ status: 'ready' });
    expect(await stored(h, 'wombat')).toEqual({ documents: 1, hits: 1 });
  });

  it('a context with almost no time left: 503 backend_unavailable with Retry-After, and nothing is stored, then or later', async () => {
    const h = coreHarness();
    const handler = captureHandler(h.services);
    const response = await handler(event({ text: 'no time for this quokka' }), contextWith(200));
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
    expect(JSON.parse(response.body)).toMatchObject({
      ok: false,
      status: 'rejected',
      reject_code: 'backend_unavailable',
      retryable: true,
      id: null,
    });
    await sleep(300);
    await h.drain.whenIdle();
    expect(await stored(h, 'quokka')).toEqual({ documents: 0, hits: 0 });
  });

  it('a batch whose budget runs out mid-way: the items done are created, the rest are backend_unavailable, and storage matches each receipt', async () => {
    const h = coreHarness();
    // Each item's first write is slowed, so the budget (the reserve plus 300 ms) runs out after a few items.
    const documents = h.ports.documents;
    const claim = documents.claim.bind(documents);
    documents.claim = async (...args: Parameters<typeof claim>) => {
      await sleep(120);
      return claim(...args);
    };
    const handler = batchHandler(h.services);
    const items = Array.from({ length: 10 }, (_, i) => ({ text: `batch item number ${i} numbat${i}` }));
    const response = await handler(event({ items }), contextWith(RESPONSE_MARGIN_MS + BUDGET_RESERVE_MS + 300));
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body);
    const created = body.results.filter((r: { status: string }) => r.status === 'created');
    const refused = body.results.filter((r: { status: string }) => r.status === 'rejected');
    expect(created.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(created.length + refused.length).toBe(10);
    for (const r of refused) expect(r).toMatchObject({ reject_code: 'backend_unavailable', retryable: true, id: null });
    expect(body.succeeded).toBe(created.length);
    await h.drain.whenIdle();
    await sleep(100);
    for (const [i, r] of body.results.entries()) {
      // A created item holds its word (its neighbours may be found through it: core/memory-context.ts);
      // a refused one left no word anywhere, not even in a neighbour's context.
      const hits = await h.ports.index.keywordSearch(shared, { text: `numbat${i}`, limit: 5 });
      if (r.status === 'created')
        expect(
          hits.filter((hit) => !hit.viaContext).map((hit) => hit.itemId),
          `item ${i}`,
        ).toEqual([r.id]);
      else expect(hits, `item ${i}`).toEqual([]);
    }
    const list = await h.services.documents.list(shared, { limit: 100 });
    expect(list.items.map((d) => d.id).sort()).toEqual(created.map((r: { id: string }) => r.id).sort());
    expect(list.items.every((d) => d.status === 'ready')).toBe(true);
  });
});
