import { withInvocationLog } from '../../http/observability.js';
import { authorizerKeys } from '../../wiring/aws/authorizer.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: the Bearer-key TOKEN authorizer on the DynamoDB tenants table. */
export const handler = instrumented(withInvocationLog(createHandler({ keys: authorizerKeys() })));
