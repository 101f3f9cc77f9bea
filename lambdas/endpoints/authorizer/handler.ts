import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { hashKey, type KeyService } from '../../core/keys.js';
import { bearerKey } from '../../http/bearer.js';

/**
 * The Bearer-key authorizer (API Gateway TOKEN authorizer). It allows the
 * call, hands the tenant id to the endpoint and names the key's usage plan
 * entry (usageIdentifierKey), or throws 'Unauthorized',
 * which API Gateway (and the local server) turns into 401.
 */
export const createHandler =
  (deps: { keys: Pick<KeyService, 'authenticate'> }) =>
  async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const key = bearerKey(event.authorizationToken);
    const tenantId = key ? await deps.keys.authenticate(key) : null;
    if (!tenantId) throw new Error('Unauthorized');
    // The whole API, so API Gateway can cache the answer per key across routes.
    const apiArn = `${event.methodArn.split('/').slice(0, 2).join('/')}/*`;
    return {
      principalId: tenantId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: apiArn }],
      },
      context: { tenantId },
      // The usage plan throttles per key: API Gateway's API key whose value is this key's SHA-256 (never the key itself).
      usageIdentifierKey: hashKey(key!),
    };
  };
