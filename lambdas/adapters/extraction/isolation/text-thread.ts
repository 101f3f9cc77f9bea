/** A reader thread with the text formats only (the AWS capture functions): none of the full pipeline's native modules. */
import { isSlowWork } from '../slow-work.js';
import { extractTextFormat } from '../text-only.js';
import { serveReads, threadData } from './reader-thread.js';

serveReads({ isSlowWork: (bytes) => isSlowWork(bytes, threadData.limits.inlineMaxBytes), extract: extractTextFormat });
