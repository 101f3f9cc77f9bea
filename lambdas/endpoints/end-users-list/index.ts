import { documentStore } from '../../aws/dynamo.js';
import { awsServices } from '../../aws/services.js';
import { createHandler } from './handler.js';

/** Lambda entry: reads the document store only. */
export const handler = createHandler(awsServices({ documents: documentStore() }));
