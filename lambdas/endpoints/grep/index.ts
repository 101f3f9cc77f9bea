import { searchIndex } from '../../wiring/aws/opensearch.js';
import { GrepService } from '../../core/grep.js';
import { createHandler } from './handler.js';

/** Lambda entry: literal search reads the search index only. */
export const handler = createHandler({ grep: new GrepService({ index: searchIndex() }) });
