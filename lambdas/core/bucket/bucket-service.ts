import { invalidRequest, notFound } from '../errors.js';
import type { BlobStore, BucketAccess, BucketRegistrationRecord, CallerBuckets, Clock } from '../ports.js';
import { newExternalId } from './access.js';
import { documentBlobs } from './document-blobs.js';
import { bucketLocation } from './placement.js';
import { probeBucket } from './probe.js';
import { type BucketRequest, normalizeRegistration } from './rules.js';

/** PUT /v1/bucket's answer: the registration without secrets (API.md). */
export type BucketView = Pick<
  BucketRegistrationRecord,
  'provider' | 'bucket' | 'region' | 'endpoint' | 'prefix' | 'auth'
> & { verified_at: string };

/** GET /v1/bucket's answer: the registration with its health. */
export interface BucketStatusView extends BucketView {
  role_arn: string | null;
  state: 'ok' | 'failing';
  last_error: string | null;
  last_error_at: string | null;
  /** Objects whose delete the bucket refused or missed, still retried in the background. */
  pending_deletes: number;
}

export interface TrustPolicyView {
  service_principal_arn: string;
  external_id: string;
  trust_policy: {
    Version: '2012-10-17';
    Statement: Array<{
      Effect: 'Allow';
      Principal: { AWS: string };
      Action: 'sts:AssumeRole';
      Condition: { StringEquals: { 'sts:ExternalId': string } };
    }>;
  };
}

/**
 * What the trust policy names where the deployment has no AWS identity to
 * assume roles with (a local stack on a machine without AWS credentials and
 * without LIBRARY_BUCKET_PRINCIPAL_ARN): a role that cannot exist (account
 * 000000000000 is no AWS account), so IAM refuses the policy ("Invalid
 * principal") rather than trusting anyone, while the answer keeps its shape
 * and the tenant's external id (docs/bucket.md, "Local stack").
 */
export const NO_PRINCIPAL_ARN = 'arn:aws:iam::000000000000:role/library-local-no-aws-identity';

const view = (r: BucketRegistrationRecord): BucketView => ({
  provider: r.provider,
  bucket: r.bucket,
  region: r.region,
  endpoint: r.endpoint,
  prefix: r.prefix,
  auth: r.auth,
  verified_at: r.verifiedAt,
});

/**
 * The caller-owned bucket's use cases (API.md "Caller-owned bucket"):
 * the trust policy to paste, registration proven by a probe, the
 * registration with its health, and unregistering.
 */
export class BucketService {
  constructor(private readonly deps: { buckets: CallerBuckets; blobs: BlobStore; clock: Clock }) {}

  /** Always answers: without a principal it names NO_PRINCIPAL_ARN (and role registration is refused). */
  async trustPolicy(tenantId: string): Promise<TrustPolicyView> {
    const principal = (await this.deps.buckets.principal.principalArn()) ?? NO_PRINCIPAL_ARN;
    const externalId = await this.deps.buckets.registrations.externalId(tenantId, newExternalId());
    return {
      service_principal_arn: principal,
      external_id: externalId,
      trust_policy: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: principal },
            Action: 'sts:AssumeRole',
            Condition: { StringEquals: { 'sts:ExternalId': externalId } },
          },
        ],
      },
    };
  }

  /**
   * Registers or replaces the tenant's bucket once a probe proved every
   * step; a failed probe throws its 422 and leaves any registration there was.
   */
  async register(tenantId: string, request: BucketRequest): Promise<BucketView> {
    const { buckets, clock } = this.deps;
    const wanted = normalizeRegistration(request, { allowPrivateEndpoints: buckets.allowPrivateEndpoints === true });
    if (wanted.auth === 'role' && !(await buckets.principal.principalArn())) {
      throw invalidRequest(
        'role_arn: this deployment has no AWS identity to assume roles with (see docs/bucket.md, "Local stack"); register with access_key_id and secret_access_key',
      );
    }
    const base = {
      tenantId,
      provider: wanted.provider,
      bucket: wanted.bucket,
      region: wanted.region,
      endpoint: wanted.endpoint,
    };
    const access: BucketAccess =
      wanted.auth === 'role'
        ? {
            ...base,
            auth: {
              kind: 'role',
              roleArn: wanted.roleArn!,
              externalId: await buckets.registrations.externalId(tenantId, newExternalId()),
            },
          }
        : {
            ...base,
            auth: { kind: 'keys', accessKeyId: wanted.accessKeyId!, secretAccessKey: wanted.secretAccessKey! },
          };
    try {
      await probeBucket(buckets.connector.open(access), {
        bucket: wanted.bucket,
        prefix: wanted.prefix,
        endpoint: wanted.endpoint,
        roleArn: wanted.roleArn,
      });
    } catch (error) {
      buckets.connector.forget(tenantId); // a refused registration leaves no client open (a warm Lambda would keep one per attempt)
      throw error;
    }
    const record: BucketRegistrationRecord = {
      ...base,
      prefix: wanted.prefix,
      auth: wanted.auth,
      roleArn: wanted.roleArn,
      accessKeyId: wanted.accessKeyId,
      sealedSecret:
        wanted.secretAccessKey === null ? null : await buckets.cipher.seal(wanted.secretAccessKey, { tenantId }),
      location: bucketLocation(wanted.provider, wanted.endpoint, wanted.bucket),
      verifiedAt: clock.now(),
      state: 'ok',
      lastError: null,
      lastErrorAt: null,
    };
    await buckets.registrations.put(record);
    documentBlobs(this.deps).forget(tenantId); // the old registration's clients and credentials go
    return view(record);
  }

  async get(tenantId: string): Promise<BucketStatusView> {
    const record = await this.deps.buckets.registrations.get(tenantId);
    if (!record) throw notFound('no bucket is registered for this tenant');
    return {
      ...view(record),
      role_arn: record.roleArn,
      state: record.state,
      last_error: record.lastError,
      last_error_at: record.lastErrorAt,
      pending_deletes: await this.deps.buckets.pendingDeletes.count(tenantId),
    };
  }

  /** Later captures go to the service's storage; what is in the bucket stays there, and deletes owed to it are dropped. */
  async unregister(tenantId: string): Promise<{ deleted: true }> {
    const { buckets } = this.deps;
    if (!(await buckets.registrations.delete(tenantId))) throw notFound('no bucket is registered for this tenant');
    await buckets.pendingDeletes.removeTenant(tenantId);
    documentBlobs(this.deps).forget(tenantId);
    return { deleted: true };
  }
}

/** The service where the stack wires it; else every bucket call is 404 (nothing can be registered here). */
export function bucketsOf(deps: { buckets?: BucketService }): BucketService {
  if (!deps.buckets) throw notFound('this deployment has no caller-owned bucket support');
  return deps.buckets;
}
