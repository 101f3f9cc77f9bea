import { readAwsConfig } from '../../wiring/aws/config.js';
import { createHandler } from './handler.js';

/** Lambda entry: the OpenAPI document, generated from the request schemas. */
export const handler = createHandler({ version: readAwsConfig().version });
