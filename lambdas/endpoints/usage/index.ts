import { apiRoot } from '../../aws/api.js';
import { createHandler } from './handler.js';

/** Lambda entry: the handler factory wired to the AWS adapters. */
export const handler = createHandler(apiRoot().services);
