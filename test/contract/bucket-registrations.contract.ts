import { describe, expect, it } from 'vitest';
import type { BucketRegistrationRecord, BucketRegistrationStore } from '../../lambdas/core/ports.js';
import { timestamp } from './fixtures.js';

const unique = (what: string) => `${what}_${Math.random().toString(36).slice(2, 10)}`;

export function bucketRegistration(
  tenantId: string,
  overrides: Partial<BucketRegistrationRecord> = {},
): BucketRegistrationRecord {
  return {
    tenantId,
    provider: 'r2',
    bucket: 'customer-bucket',
    region: 'auto',
    endpoint: 'https://0123abcd.r2.cloudflarestorage.com',
    prefix: 'library/',
    auth: 'keys',
    roleArn: null,
    accessKeyId: 'AKIAEXAMPLE',
    sealedSecret: 'sealed:opaque',
    location: 'loc-1',
    verifiedAt: timestamp(),
    state: 'ok',
    lastError: null,
    lastErrorAt: null,
    ...overrides,
  };
}

/** The BucketRegistrationStore contract: every adapter (SQLite, DynamoDB) passes these. */
export function bucketRegistrationsContract(name: string, makeStore: () => Promise<BucketRegistrationStore>) {
  describe(`BucketRegistrationStore contract: ${name}`, () => {
    it('stores a registration whole, replaces it whole, reads it back per tenant, and deletes it once', async () => {
      const store = await makeStore();
      const tenant = unique('ten');
      expect(await store.get(tenant)).toBeNull();
      const first = bucketRegistration(tenant);
      await store.put(first);
      expect(await store.get(tenant)).toEqual(first);

      const role = bucketRegistration(tenant, {
        provider: 's3',
        region: 'eu-west-1',
        endpoint: null,
        prefix: '',
        auth: 'role',
        roleArn: 'arn:aws:iam::222222222222:role/library',
        accessKeyId: null,
        sealedSecret: null,
        location: 'loc-2',
        state: 'failing',
        lastError: 'denied: AccessDenied (HTTP 403)',
        lastErrorAt: timestamp(),
      });
      await store.put(role);
      expect(await store.get(tenant)).toEqual(role);

      const other = unique('ten');
      expect(await store.get(other)).toBeNull();
      expect(await store.delete(other)).toBe(false);
      expect(await store.delete(tenant)).toBe(true);
      expect(await store.get(tenant)).toBeNull();
      expect(await store.delete(tenant)).toBe(false);
    });

    it('records health on the registration it was about, and not on one that replaced it or is gone', async () => {
      const store = await makeStore();
      const tenant = unique('ten');
      await store.put(bucketRegistration(tenant, { location: 'loc-a' }));
      const failing = { state: 'failing' as const, lastError: 'unreachable: ETIMEDOUT', lastErrorAt: timestamp() };
      await store.recordHealth(tenant, 'loc-a', failing);
      expect(await store.get(tenant)).toMatchObject({ location: 'loc-a', ...failing });

      // A replace won meanwhile: a late report about the old bucket changes nothing.
      await store.put(bucketRegistration(tenant, { location: 'loc-b' }));
      await store.recordHealth(tenant, 'loc-a', failing);
      expect(await store.get(tenant)).toMatchObject({
        location: 'loc-b',
        state: 'ok',
        lastError: null,
        lastErrorAt: null,
      });
      await store.recordHealth(tenant, 'loc-b', {
        state: 'ok',
        lastError: 'kept for reading',
        lastErrorAt: failing.lastErrorAt,
      });
      expect(await store.get(tenant)).toMatchObject({ state: 'ok', lastError: 'kept for reading' });

      // Gone: nothing comes back.
      const gone = unique('ten');
      await store.recordHealth(gone, 'loc-a', failing);
      expect(await store.get(gone)).toBeNull();
    });

    it('keeps the first external id of a tenant (concurrent first calls agree), apart per tenant, through unregistering', async () => {
      const store = await makeStore();
      const tenant = unique('ten');
      const ids = await Promise.all(
        ['lib-a', 'lib-b', 'lib-c', 'lib-d'].map((candidate) => store.externalId(tenant, candidate)),
      );
      expect(new Set(ids).size).toBe(1);
      expect(['lib-a', 'lib-b', 'lib-c', 'lib-d']).toContain(ids[0]);
      expect(await store.externalId(tenant, 'lib-later')).toBe(ids[0]);
      expect(await store.externalId(unique('ten'), 'lib-other')).toBe('lib-other');

      await store.put(bucketRegistration(tenant));
      await store.delete(tenant);
      expect(await store.externalId(tenant, 'lib-after-delete')).toBe(ids[0]);
    });
  });
}
