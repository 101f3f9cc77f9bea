import { authorizerKeys } from '../../wiring/aws/authorizer.js';
import { createHandler } from './handler.js';
import { withInvocationLog } from '../../http/observability.js';
import { instrumented } from '../../wiring/aws/observability.js';

/** Lambda entry: the Bearer-key TOKEN authorizer on the DynamoDB tenants table. */
export const handler = instrumented(withInvocationLog(createHandler({ keys: authorizerKeys() })));
