import { BucketError } from '../errors.js';
import type { BlobStore, BucketAccess, BucketRegistrationRecord, CallerBuckets } from '../ports.js';

/**
 * Opens a registration into a blob store over the caller's bucket: the
 * secret is opened with the tenant id as context, the external id looked up
 * for a role. The secret lives in memory only for the connector.
 */
export async function openBucket(buckets: CallerBuckets, registration: BucketRegistrationRecord): Promise<BlobStore> {
  return buckets.connector.open(await accessOf(buckets, registration));
}

export async function accessOf(buckets: CallerBuckets, r: BucketRegistrationRecord): Promise<BucketAccess> {
  const base = { tenantId: r.tenantId, provider: r.provider, bucket: r.bucket, region: r.region, endpoint: r.endpoint };
  if (r.auth === 'role') {
    const externalId = await buckets.registrations.externalId(r.tenantId, newExternalId());
    return { ...base, auth: { kind: 'role', roleArn: r.roleArn!, externalId } };
  }
  // A secret that no longer opens (the service's secrets key was replaced) is a registration to make again, said as such.
  const secretAccessKey = await buckets.cipher.open(r.sealedSecret!, { tenantId: r.tenantId }).catch(() => {
    throw new BucketError(
      'denied',
      'the stored secret could not be opened; register the bucket again (PUT /v1/bucket)',
    );
  });
  return { ...base, auth: { kind: 'keys', accessKeyId: r.accessKeyId!, secretAccessKey } };
}

/**
 * A new external id: 24 random bytes (192 bits, unguessable), in the
 * characters STS accepts. Stored with the tenant the first time it is asked
 * for and never changed (BucketRegistrationStore.externalId).
 */
export function newExternalId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `lib-${Buffer.from(bytes).toString('base64url')}`;
}
