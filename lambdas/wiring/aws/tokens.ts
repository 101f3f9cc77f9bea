import { ReportedTokenCounter } from '../../adapters/aws/reported-token-counter.js';

/**
 * The token counter of this Lambda environment: Titan's own counts, which the
 * embedder (bedrock.ts) reports into it. No SDK client: a function that only
 * reads usage takes it without Bedrock.
 */
let tokens: ReportedTokenCounter | undefined;

export function tokenCounter(): ReportedTokenCounter {
  return (tokens ??= new ReportedTokenCounter());
}
