import { bucketService } from '../../wiring/aws/buckets.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: the trust policy a customer pastes (the dedicated role as principal, the tenant's external id). */
export const handler = instrumented(createHandler({ buckets: bucketService() }));
