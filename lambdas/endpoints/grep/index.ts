import { GrepService } from '../../core/grep.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { createHandler } from './handler.js';

/** Lambda entry: literal search reads the search index, in the library's live generation (one DynamoDB read). */
export const handler = instrumented(
  withEndUserLogKey(createHandler({ grep: new GrepService({ index: searchIndex(), documents: documentStore() }) })),
);
