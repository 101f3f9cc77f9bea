import { beforeEach, describe, expect, it } from 'vitest';
import { ConfiguredBucketPrincipal } from '../../lambdas/adapters/caller-bucket/configured-principal.js';
import { AesSecretCipher } from '../../lambdas/adapters/local/aes-secret-cipher.js';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteBucketRegistrations } from '../../lambdas/adapters/local/sqlite-bucket-registrations.js';
import { SqlitePendingBucketDeletes } from '../../lambdas/adapters/local/sqlite-pending-bucket-deletes.js';
import { BucketService, NO_PRINCIPAL_ARN } from '../../lambdas/core/bucket/bucket-service.js';
import { BucketDeleteRetry } from '../../lambdas/core/bucket/delete-retry.js';
import { documentBlobs } from '../../lambdas/core/bucket/document-blobs.js';
import { captureFailure, healthLine } from '../../lambdas/core/bucket/failures.js';
import { bucketBlobKey, bucketLocation } from '../../lambdas/core/bucket/placement.js';
import { systemClock } from '../../lambdas/core/dates.js';
import {
  BackendUnavailableError,
  BucketError,
  CaptureRejected,
  DomainError,
  FORBIDDEN_ENDPOINT_DETAIL,
} from '../../lambdas/core/errors.js';
import type { BlobStore, BucketAccess, CallerBuckets } from '../../lambdas/core/ports.js';
import { InMemoryBlobStore } from '../support/in-memory-ports.js';

/** A caller's bucket in memory whose steps can be made to fail, recording what was asked of it. */
class ScriptedBucket implements BlobStore {
  readonly objects = new Map<string, Uint8Array>();
  readonly calls: string[] = [];
  fail: Partial<Record<'put' | 'get' | 'delete', BucketError>> = {};
  corrupt = false;
  async put(key: string, bytes: Uint8Array) {
    this.calls.push(`put ${key}`);
    if (this.fail.put) throw this.fail.put;
    this.objects.set(key, bytes);
  }
  async get(key: string) {
    this.calls.push(`get ${key}`);
    if (this.fail.get) throw this.fail.get;
    const bytes = this.objects.get(key);
    return bytes && this.corrupt ? Buffer.from('something else') : (bytes ?? null);
  }
  async delete(key: string) {
    this.calls.push(`delete ${key}`);
    if (this.fail.delete) throw this.fail.delete;
    this.objects.delete(key);
  }
}

let bucket: ScriptedBucket;
let buckets: CallerBuckets;
let service: BucketService;
let opened: BucketAccess[];
let forgotten: string[];
const clock = systemClock();
const keys = {
  provider: 's3' as const,
  bucket: 'acme',
  endpoint: 'https://s3.example.com',
  accessKeyId: 'AKIA1',
  secretAccessKey: 'first-secret',
};

beforeEach(() => {
  const db = openDatabase(':memory:');
  bucket = new ScriptedBucket();
  opened = [];
  forgotten = [];
  buckets = {
    registrations: new SqliteBucketRegistrations(db),
    pendingDeletes: new SqlitePendingBucketDeletes(db),
    cipher: new AesSecretCipher(Buffer.alloc(32, 3)),
    connector: { open: (access) => (opened.push(access), bucket), forget: (tenantId) => void forgotten.push(tenantId) },
    principal: new ConfiguredBucketPrincipal('arn:aws:iam::123456789012:role/library-bucket-access'),
  };
  service = new BucketService({ buckets, blobs: new InMemoryBlobStore(), clock });
});

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as DomainError,
  );

describe('the probe', () => {
  it('writes, reads back and deletes one random object under the prefix, then registers', async () => {
    const view = await service.register('ten_a', { ...keys, prefix: 'docs' });
    expect(view).toMatchObject({
      prefix: 'docs/',
      auth: 'keys',
      region: 'us-east-1',
      endpoint: 'https://s3.example.com',
    });
    const [put, get, del] = bucket.calls;
    expect(bucket.calls).toHaveLength(3);
    expect(put).toMatch(/^put docs\/\.library-probe\/[0-9a-f]{24}$/);
    expect(get).toBe(put!.replace('put', 'get'));
    expect(del).toBe(put!.replace('put', 'delete'));
    expect(bucket.objects.size).toBe(0);
    expect(opened[0]!.auth).toEqual({ kind: 'keys', accessKeyId: 'AKIA1', secretAccessKey: 'first-secret' });
  });

  const cases: Array<[string, () => void, string, RegExp]> = [
    [
      'write refused',
      () => {
        bucket.fail.put = new BucketError('denied', 'AccessDenied (HTTP 403)');
      },
      'bucket_access_denied',
      /^write: .*s3:PutObject/,
    ],
    [
      'write unreachable',
      () => {
        bucket.fail.put = new BucketError('unreachable', 'ETIMEDOUT');
      },
      'bucket_unreachable',
      /^write: .*could not be reached \(ETIMEDOUT\)/,
    ],
    [
      'role refused',
      () => {
        bucket.fail.put = new BucketError('denied', 'AccessDenied (HTTP 403)', 'assume_role');
      },
      'bucket_access_denied',
      /^assume role: the service could not assume the role/,
    ],
    [
      'read refused',
      () => {
        bucket.fail.get = new BucketError('denied', 'AccessDenied (HTTP 403)');
      },
      'bucket_access_denied',
      /^read: .*s3:GetObject.*kms:Decrypt/,
    ],
    [
      'read differs',
      () => {
        bucket.corrupt = true;
      },
      'bucket_unreachable',
      /^compare: the probe object read back differs/,
    ],
    [
      'delete refused',
      () => {
        bucket.fail.delete = new BucketError('denied', 'AccessDenied (HTTP 403)');
      },
      'bucket_access_denied',
      /^delete: .*still there.*s3:DeleteObject/,
    ],
    // Whatever an adapter put in the detail, the caller is never told the address (no DNS oracle).
    [
      'endpoint refused',
      () => {
        bucket.fail.put = new BucketError(
          'forbidden_endpoint',
          's3.example.com resolves to 10.0.0.1, a private (RFC 1918) address',
        );
      },
      'invalid_request',
      /^endpoint: the endpoint is not a public address, or its name resolves to one that is not; an endpoint must be https to a public address \([^)]*\)$/,
    ],
  ];
  for (const [name, arrange, code, message] of cases) {
    it(`${name}: 422 ${code} naming the step; nothing registered, the old registration kept`, async () => {
      await service.register('ten_a', keys);
      const before = await buckets.registrations.get('ten_a');
      forgotten = [];
      arrange();
      const error = await failureOf(
        service.register('ten_a', { ...keys, bucket: 'other', secretAccessKey: 'second-secret' }),
      );
      expect(error).toBeInstanceOf(DomainError);
      expect(error!.code).toBe(code);
      expect(error!.message).toMatch(message);
      expect(error!.message).not.toContain('second-secret');
      expect(await buckets.registrations.get('ten_a')).toEqual(before);
      expect(forgotten).toEqual(['ten_a']); // the refused attempt's client is not kept open
    });
  }

  it('a failed read or compare deletes its probe object on the way out', async () => {
    bucket.corrupt = true;
    await failureOf(service.register('ten_a', keys));
    expect(bucket.calls.at(-1)).toMatch(/^delete /);
    expect(bucket.objects.size).toBe(0);
  });
});

describe('registration records', () => {
  it('seals the secret with the tenant as context, and a replace with another key of the same bucket keeps its location', async () => {
    await service.register('ten_a', keys);
    const first = (await buckets.registrations.get('ten_a'))!;
    expect(first.sealedSecret).not.toContain('first-secret');
    expect(await buckets.cipher.open(first.sealedSecret!, { tenantId: 'ten_a' })).toBe('first-secret');
    await expect(buckets.cipher.open(first.sealedSecret!, { tenantId: 'ten_b' })).rejects.toThrow();
    await service.register('ten_a', { ...keys, accessKeyId: 'AKIA2', secretAccessKey: 'rotated' });
    expect((await buckets.registrations.get('ten_a'))!.location).toBe(first.location);
  });

  it('gives each tenant one external id that never changes, in a trust policy naming the principal', async () => {
    const a1 = await service.trustPolicy('ten_a');
    const a2 = await service.trustPolicy('ten_a');
    const b = await service.trustPolicy('ten_b');
    expect(a1.external_id).toMatch(/^lib-[A-Za-z0-9_-]{32}$/);
    expect(a2.external_id).toBe(a1.external_id);
    expect(b.external_id).not.toBe(a1.external_id);
    expect(a1.trust_policy.Statement[0]).toEqual({
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam::123456789012:role/library-bucket-access' },
      Action: 'sts:AssumeRole',
      Condition: { StringEquals: { 'sts:ExternalId': a1.external_id } },
    });
    await service.register('ten_a', { provider: 's3', bucket: 'acme', roleArn: 'arn:aws:iam::210987654321:role/lib' });
    expect(opened.at(-1)!.auth).toEqual({
      kind: 'role',
      roleArn: 'arn:aws:iam::210987654321:role/lib',
      externalId: a1.external_id,
    });
    await service.unregister('ten_a');
    expect((await service.trustPolicy('ten_a')).external_id).toBe(a1.external_id);
  });

  it('without a principal still answers, naming a principal IAM refuses, and refuses role registrations', async () => {
    buckets.principal = new ConfiguredBucketPrincipal(null);
    const a = await service.trustPolicy('ten_a');
    expect(a.service_principal_arn).toBe(NO_PRINCIPAL_ARN);
    expect(a.trust_policy.Statement[0]).toEqual({
      Effect: 'Allow',
      Principal: { AWS: NO_PRINCIPAL_ARN },
      Action: 'sts:AssumeRole',
      Condition: { StringEquals: { 'sts:ExternalId': a.external_id } },
    });
    expect((await service.trustPolicy('ten_a')).external_id).toBe(a.external_id);
    const refused = await failureOf(
      service.register('ten_a', { provider: 's3', bucket: 'acme', roleArn: 'arn:aws:iam::210987654321:role/lib' }),
    );
    expect(refused).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^role_arn: /) });
    expect(opened).toEqual([]);
  });
});

describe('a secret that no longer opens', () => {
  it('rejects captures bucket_access_denied saying to register again, and marks the registration failing', async () => {
    await service.register('ten_a', keys);
    buckets.cipher = new AesSecretCipher(Buffer.alloc(32, 9)); // the secrets key was replaced
    const blobs = documentBlobs({ blobs: new InMemoryBlobStore(), buckets, clock });
    const placement = await blobs.placement({ tenantId: 'ten_a', endUserId: null });
    const doc = {
      tenantId: 'ten_a',
      endUserId: null,
      storage: placement.storage,
      blobKey: placement.blobKey('file_9'),
      contentType: 'text/plain',
    } as never;
    const error = await blobs.put(doc, Buffer.from('x')).catch((e: unknown) => e as Error & { rejectCode?: string });
    expect(error).toMatchObject({ rejectCode: 'bucket_access_denied' });
    expect(error!.message).toMatch(/stored secret could not be opened; register the bucket again/);
    expect((await buckets.registrations.get('ten_a'))!).toMatchObject({
      state: 'failing',
      lastError: expect.stringMatching(/^write: refused/),
    });
  });
});

describe('reads the ingest worker makes', () => {
  it('a refused read fails the document bucket_access_denied; an unreachable one is a backend outage to retry', async () => {
    await service.register('ten_a', keys);
    const blobs = documentBlobs({ blobs: new InMemoryBlobStore(), buckets, clock });
    const placement = await blobs.placement({ tenantId: 'ten_a', endUserId: 'u 1' });
    const doc = {
      tenantId: 'ten_a',
      endUserId: 'u 1',
      storage: placement.storage,
      blobKey: placement.blobKey('file_7'),
      contentType: 'application/pdf',
    } as never;
    await blobs.put(doc, Buffer.from('%PDF'));
    expect([...bucket.objects.keys()]).toEqual(['library/end-users/u%201/file_7']);
    expect(Buffer.from((await blobs.get(doc))!).toString()).toBe('%PDF');
    bucket.fail.get = new BucketError('denied', 'AccessDenied (HTTP 403)');
    expect(await blobs.get(doc).catch((e: unknown) => e)).toMatchObject({
      rejectCode: 'bucket_access_denied',
      detail: expect.stringMatching(/refused reading the stored file/),
    });
    bucket.fail.get = new BucketError('unreachable', 'ETIMEDOUT');
    expect(await blobs.get(doc).catch((e: unknown) => e)).toBeInstanceOf(BackendUnavailableError);
  });
});

describe('deletes owed to a bucket', () => {
  const doc = (blobKey: string) => ({
    id: 'file_1',
    tenantId: 'ten_a',
    endUserId: null,
    title: 't',
    filename: 'f',
    contentType: 'text/plain',
    sourceRef: null,
    sizeBytes: 1,
    sha256: 'x',
    kind: 'file' as const,
    status: 'ready' as const,
    createdAt: clock.now(),
    storage: 'bucket' as const,
    lineCount: 1,
    pageCount: null,
    blobKey,
    passageCount: 1,
    passagesEmbedded: 1,
    failureReason: null,
    metadata: {},
  });

  it('a refused delete is pending, retried with a doubling wait, and removed once it works', async () => {
    await service.register('ten_a', keys);
    const location = bucketLocation('s3', keys.endpoint, 'acme');
    const blobs = documentBlobs({ blobs: new InMemoryBlobStore(), buckets, clock });
    bucket.objects.set('library/shared/file_1', Buffer.from('x'));
    bucket.fail.delete = new BucketError('unreachable', 'ECONNRESET');
    expect(await blobs.delete(doc(bucketBlobKey(location, 'library/shared/file_1')))).toBe('pending');
    expect(await buckets.pendingDeletes.count('ten_a')).toBe(1);
    expect((await buckets.registrations.get('ten_a'))!.state).toBe('failing');

    const retry = new BucketDeleteRetry({ buckets, blobs, clock });
    expect(await retry.sweep()).toEqual({ deleted: 0, dropped: 0, stillPending: 0 }); // not due yet
    const far = '2999-01-01T00:00:00.000000';
    const sweepAt = (at: string) => new BucketDeleteRetry({ buckets, blobs, clock: { now: () => at } }).sweep();
    expect(await sweepAt(far)).toEqual({ deleted: 0, dropped: 0, stillPending: 1 });
    const [entry] = await buckets.pendingDeletes.due(far.replace('2999', '3999'), 10);
    expect(entry).toMatchObject({
      attempts: 1,
      lastError: 'delete: unreachable (ECONNRESET)',
      nextAttemptAt: '2999-01-01T00:02:00.000000',
    });
    bucket.fail = {};
    expect(await sweepAt('3999-01-01T00:00:00.000000')).toEqual({ deleted: 1, dropped: 0, stillPending: 0 });
    expect(bucket.objects.size).toBe(0);
  });

  it('is dropped, untouched, once the tenant unregistered or registered another bucket', async () => {
    await service.register('ten_a', keys);
    const location = bucketLocation('s3', keys.endpoint, 'acme');
    await buckets.pendingDeletes.add([
      {
        tenantId: 'ten_a',
        blobKey: bucketBlobKey(location, 'library/shared/file_1'),
        since: clock.now(),
        nextAttemptAt: clock.now(),
      },
    ]);
    await service.register('ten_a', { ...keys, bucket: 'another' });
    bucket.calls.length = 0;
    const blobs = documentBlobs({ blobs: new InMemoryBlobStore(), buckets, clock });
    expect(await new BucketDeleteRetry({ buckets, blobs, clock }).sweep()).toEqual({
      deleted: 0,
      dropped: 1,
      stillPending: 0,
    });
    expect(bucket.calls).toEqual([]);
    // Deleting a document of the old bucket claims nothing.
    expect(await blobs.delete(doc(bucketBlobKey(location, 'library/shared/file_1')))).toBe('none');
  });
});

describe('an address guard refusal after registration', () => {
  it('reaches the health line and the capture rejection without the address the adapter saw', () => {
    const refused = new BucketError(
      'forbidden_endpoint',
      'bucket.example.com resolves to 10.0.0.1, a private (RFC 1918) address',
    );
    const line = healthLine(refused, 'write');
    expect(line).toBe(`write: endpoint refused by the address guard (${FORBIDDEN_ENDPOINT_DETAIL})`);
    const rejection = captureFailure(refused, 'write');
    expect(rejection).toBeInstanceOf(CaptureRejected);
    expect(rejection.message).toContain(FORBIDDEN_ENDPOINT_DETAIL);
    for (const text of [line, rejection.message]) expect(text).not.toMatch(/10\.0\.0\.1|bucket\.example\.com|RFC 1918/);
    // Other failures keep their code and status: those are the bucket's own answer, not the service's network.
    expect(healthLine(new BucketError('denied', 'AccessDenied (HTTP 403)'), 'read')).toBe(
      'read: refused (AccessDenied (HTTP 403))',
    );
  });
});
