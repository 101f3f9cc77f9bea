import { authorizerKeys } from '../../wiring/aws/authorizer.js';
import { createHandler } from './handler.js';

/** Lambda entry: the Bearer-key TOKEN authorizer on the DynamoDB tenants table. */
export const handler = createHandler({ keys: authorizerKeys() });
