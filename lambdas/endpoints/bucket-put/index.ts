import { bucketService } from '../../wiring/aws/buckets.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: registers or replaces the tenant's bucket once the probe (write, read back, delete) passed; a secret key is sealed with KMS. */
export const handler = instrumented(createHandler({ buckets: bucketService() }));
