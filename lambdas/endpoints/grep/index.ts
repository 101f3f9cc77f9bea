import { searchIndex } from '../../wiring/aws/opensearch.js';
import { GrepService } from '../../core/grep.js';
import { createHandler } from './handler.js';
import { instrumented } from '../../wiring/aws/observability.js';

/** Lambda entry: literal search reads the search index only. */
export const handler = instrumented(createHandler({ grep: new GrepService({ index: searchIndex() }) }));
