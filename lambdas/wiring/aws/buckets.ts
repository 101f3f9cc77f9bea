import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { DynamoBucketRegistrations } from '../../adapters/aws/dynamo-bucket-registrations.js';
import { DynamoPendingBucketDeletes } from '../../adapters/aws/dynamo-pending-bucket-deletes.js';
import { KmsSecretCipher, kmsClient } from '../../adapters/aws/kms-secret-cipher.js';
import { ConfiguredBucketPrincipal } from '../../adapters/caller-bucket/configured-principal.js';
import { S3BucketConnector } from '../../adapters/caller-bucket/connector.js';
import { dedicatedRoleCaller, StsRoleCredentials } from '../../adapters/caller-bucket/role-credentials.js';
import { roleSessionName } from '../../adapters/caller-bucket/session-name.js';
import { BucketService } from '../../core/bucket/bucket-service.js';
import { systemClock } from '../../core/dates.js';
import type { BlobStore, CallerBuckets } from '../../core/ports.js';
import { logger } from '../../http/observability.js';
import { awsConfig, bucketConfig } from './config.js';
import { dynamoClient } from './dynamo.js';
import { tracer } from './observability.js';
import { unwired } from './unwired-port.js';

/**
 * Callers' buckets on AWS, made on the first call and kept for the Lambda
 * environment (so role sessions and S3 clients are reused across
 * invocations): registrations and pending deletes in the buckets table,
 * secrets sealed with the stack's KMS key, buckets reached by keys or by
 * role. A role is reached in two hops: the function's role assumes the
 * stack's dedicated role (the principal customers trust), whose session
 * assumes the customer's role with the tenant's external id. Private
 * endpoints are never allowed here (LIBRARY_ALLOW_PRIVATE_ENDPOINTS is a
 * local-stack setting only). Only the functions whose access has
 * `callerBuckets` (a route's contract, or lib/route-access.ts) wire this.
 */
let buckets: CallerBuckets | undefined;

export function callerBuckets(): CallerBuckets {
  if (buckets) return buckets;
  const { region } = awsConfig();
  const settings = bucketConfig();
  // The KMS and STS/S3 clients are made on first use: a function that only
  // reads registrations (trust policy, GET, DELETE), or a capture for a
  // tenant with no bucket, never pays for them at cold start.
  let cipher: KmsSecretCipher | undefined;
  let connector: S3BucketConnector | undefined;
  const functionCredentials = defaultProvider();
  return (buckets = {
    registrations: new DynamoBucketRegistrations(dynamoClient(), settings.table),
    pendingDeletes: new DynamoPendingBucketDeletes(dynamoClient(), settings.table),
    get cipher() {
      // Traced like the other AWS clients (X-Ray subsegments per KMS call).
      return (cipher ??= new KmsSecretCipher(
        tracer.captureAWSv3Client(kmsClient({ region, credentials: functionCredentials })),
        settings.secretsKeyArn,
      ));
    },
    get connector() {
      return (connector ??= new S3BucketConnector({
        allowPrivateEndpoints: false,
        // The caller reads a generic refusal; the operator's log keeps what was refused and why.
        onForbiddenEndpoint: (refusal) => logger.warn('bucket endpoint refused by the address guard', { ...refusal }),
        roleCredentials: new StsRoleCredentials({
          region,
          caller: dedicatedRoleCaller({
            region,
            functionCredentials,
            roleArn: settings.accessRoleArn,
            // The first hop's session names the function; the customer sees the second's, named for the tenant.
            sessionName: roleSessionName(process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'library-function'),
          }),
        }),
      }));
    },
    principal: new ConfiguredBucketPrincipal(settings.accessRoleArn),
    allowPrivateEndpoints: false,
  });
}

/**
 * The bucket endpoints' use cases (trust policy, register, read, unregister):
 * they never touch the service's own blobs, so that port is unwired (no S3
 * grant on the service bucket either).
 */
export function bucketService(): BucketService {
  return new BucketService({ buckets: callerBuckets(), blobs: unwired<BlobStore>('blobs'), clock: systemClock() });
}
