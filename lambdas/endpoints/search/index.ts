import { systemClock } from '../../core/dates.js';
import { SearchService } from '../../core/search.js';
import { UsageService } from '../../core/usage.js';
import { embedder, rememberedQueries } from '../../wiring/aws/bedrock.js';
import { embeddingScale } from '../../wiring/aws/config.js';
import { documentStore, usageLedger } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented, meteredUsage } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry: hybrid search on the index, the query embedded by Bedrock, in
 * the library's live generation (one DynamoDB read); scores on the scale the
 * embedder was measured at when the stack was deployed (workers/aws-embedder-scale); the
 * query's embedding charged to the tenant.
 */
const scale = embeddingScale();
const clock = systemClock();
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      search: new SearchService({
        index: searchIndex(),
        embedder: embedder(),
        rememberedQueries: rememberedQueries(),
        documents: documentStore(),
        cosineScale: async () => scale,
        // The query's embedding is charged to the tenant (the usage table: this function's only write).
        spend: { usage: new UsageService({ usage: meteredUsage(usageLedger()), clock }), clock },
      }),
    }),
  ),
);
