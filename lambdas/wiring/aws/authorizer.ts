import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoTenantStore } from '../../adapters/aws/dynamo-tenant-store.js';
import { systemClock } from '../../core/dates.js';
import { KeyService } from '../../core/keys.js';
import { ENV } from './config.js';
import { tracer } from './observability.js';

/**
 * The authorizer's own small composition root: it needs only the tenants
 * table, so its bundle stays small and its cold start short (it runs before
 * every uncached request).
 */
let keys: KeyService | undefined;

export function authorizerKeys(env: Record<string, string | undefined> = process.env): KeyService {
  if (keys) return keys;
  const region = env.AWS_REGION;
  const table = env[ENV.tenantsTable];
  if (!region || !table)
    throw new Error(
      `missing environment variables: ${[!region && 'AWS_REGION', !table && ENV.tenantsTable].filter(Boolean).join(', ')}`,
    );
  const client = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({ region, maxAttempts: 3 })));
  keys = new KeyService({ tenants: new DynamoTenantStore(client, table), clock: systemClock() });
  return keys;
}
