import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createEndpoint } from '../../lambdas/http/endpoint.js';

/** A request whose function runs out of time is the contract's retryable 503, not a 500 (a slow backend is no bug). */
describe('an endpoint out of time', () => {
  it('answers 503 unavailable with Retry-After when the function would time out', async () => {
    const slow = createEndpoint({
      auth: true,
      run: () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: { ok: true } }), 2_000)),
    });
    const event = {
      httpMethod: 'GET',
      path: '/v1/search',
      headers: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'req_timeout', authorizer: { tenantId: 'ten_t' } },
    } as unknown as APIGatewayProxyEvent;
    // Middy ends the request just before the function's remaining time is up.
    const context = { getRemainingTimeInMillis: () => 200, functionName: 'search' } as unknown as Context;
    const response = await slow(event, context);
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
    expect(JSON.parse(response.body).error).toMatchObject({
      code: 'unavailable',
      message: 'a backend timed out; safe to retry',
    });
  });
});
