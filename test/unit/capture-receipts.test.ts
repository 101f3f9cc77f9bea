import { describe, expect, it } from 'vitest';
import { createHandler as capture } from '../../lambdas/endpoints/capture/handler.js';
import { createHandler as captureBatch } from '../../lambdas/endpoints/capture-batch/handler.js';
import type { CaptureOutcome } from '../../lambdas/http/observability.js';
import { coreHarness } from '../support/core-harness.js';

const event = (body: unknown) =>
  ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    queryStringParameters: null,
    pathParameters: null,
    requestContext: { requestId: 'req_1', authorizer: { tenantId: 'ten_a' } },
  }) as never;
const context = { awsRequestId: 'req_1', functionName: 'capture', getRemainingTimeInMillis: () => 30_000 } as never;

describe('capture endpoints tell every receipt to their listener (the AWS wiring counts them)', () => {
  it('the batch reports each item, a shape rejection too', async () => {
    const { services } = coreHarness();
    const seen: CaptureOutcome[] = [];
    const handler = captureBatch({ capture: services.capture, onReceipt: (r) => seen.push(r) });
    const response = await handler(event({ items: [{ text: 'kept note' }, { text: 42 }, {}] }), context);
    expect(response.statusCode).toBe(200);
    expect(seen.map((r) => [r.status, r.reject_code])).toEqual([
      ['created', null],
      ['rejected', 'invalid_item'],
      ['rejected', 'missing_content'],
    ]);
  });

  it('the single capture reports its receipt, and a failing listener does not fail the capture', async () => {
    const { services } = coreHarness();
    const seen: CaptureOutcome[] = [];
    const counted = await capture({ capture: services.capture, onReceipt: (r) => seen.push(r) })(
      event({ text: 'one note' }),
      context,
    );
    expect(counted.statusCode).toBe(201);
    expect(seen.map((r) => r.status)).toEqual(['created']);
    const failing = await capture({
      capture: services.capture,
      onReceipt: () => {
        throw new Error('metrics down');
      },
    })(event({ text: 'two note' }), context);
    expect(failing.statusCode).toBe(201);
  });
});
