import { bucketService } from '../../wiring/aws/buckets.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: the tenant's registration without secrets, with its health and the deletes still owed. */
export const handler = instrumented(createHandler({ buckets: bucketService() }));
