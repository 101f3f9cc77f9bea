import { searchIndex } from '../../aws/opensearch.js';
import { awsServices } from '../../aws/services.js';
import { createHandler } from './handler.js';

/** Lambda entry: literal search reads the search index only. */
export const handler = createHandler(awsServices({ index: searchIndex() }));
