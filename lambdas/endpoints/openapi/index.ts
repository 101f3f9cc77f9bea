import { readAwsConfig } from '../../wiring/aws/config.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: the OpenAPI document, generated from the request schemas. */
export const handler = instrumented(createHandler({ version: readAwsConfig().version }));
