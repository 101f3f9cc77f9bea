import { bucketService } from '../../wiring/aws/buckets.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: unregisters; later captures go to the service's storage. */
export const handler = instrumented(createHandler({ buckets: bucketService() }));
