import { embedder } from '../../wiring/aws/bedrock.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { SearchService } from '../../core/search.js';
import { createHandler } from './handler.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';

/** Lambda entry: hybrid search on the index, the query embedded by Bedrock, in the library's live generation (one DynamoDB read). */
export const handler = instrumented(withEndUserLogKey(createHandler({ search: new SearchService({ index: searchIndex(), embedder: embedder(), documents: documentStore() }) })));
