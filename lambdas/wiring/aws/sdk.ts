import { awsConfig } from './config.js';

/**
 * What every AWS SDK client of a function is made with. The SDK's own retries
 * (standard mode, 3 attempts) absorb short throttles; what outlasts them
 * becomes backend_unavailable. Each client lives in its own module (dynamo.ts,
 * s3.ts, sqs.ts, bedrock.ts, opensearch.ts), made on the first call and
 * traced by X-Ray, so a function bundles only the clients its entry wires.
 */
export const sdkOptions = () => ({ region: awsConfig().region, maxAttempts: 3 });
