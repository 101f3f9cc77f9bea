import { embedder } from '../../aws/bedrock.js';
import { searchIndex } from '../../aws/opensearch.js';
import { awsServices } from '../../aws/services.js';
import { createHandler } from './handler.js';

/** Lambda entry: hybrid search on the index, the question embedded by Bedrock. */
export const handler = createHandler(awsServices({ index: searchIndex(), embedder: embedder() }));
