import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import type { KeyService } from '../../core/keys.js';

/**
 * The Bearer-key authorizer (API Gateway TOKEN authorizer). It allows the
 * call and hands the tenant id to the endpoint, or throws 'Unauthorized',
 * which API Gateway (and the local server) turns into 401.
 */
export const createHandler =
  (deps: { keys: Pick<KeyService, 'authenticate'> }) =>
  async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const match = /^Bearer ([^\s]+)$/.exec(event.authorizationToken ?? '');
    const tenantId = match ? await deps.keys.authenticate(match[1]!) : null;
    if (!tenantId) throw new Error('Unauthorized');
    // The whole API, so API Gateway can cache the answer per key across routes.
    const apiArn = event.methodArn.split('/').slice(0, 2).join('/') + '/*';
    return {
      principalId: tenantId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: apiArn }],
      },
      context: { tenantId },
    };
  };
