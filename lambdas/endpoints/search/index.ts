import { SearchService } from '../../core/search.js';
import { embedder, rememberedQueries } from '../../wiring/aws/bedrock.js';
import { embeddingScale } from '../../wiring/aws/config.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry: hybrid search on the index, the query embedded by Bedrock, in
 * the library's live generation (one DynamoDB read); scores on the scale the
 * embedder was measured at when the stack was deployed (workers/aws-embedder-scale).
 */
const scale = embeddingScale();
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      search: new SearchService({
        index: searchIndex(),
        embedder: embedder(),
        rememberedQueries: rememberedQueries(),
        documents: documentStore(),
        cosineScale: async () => scale,
      }),
    }),
  ),
);
