import { describe, expect, it } from 'vitest';
import type { TenantStore } from '../../lambdas/core/ports.js';
import { timestamp } from './fixtures.js';

/** The TenantStore contract: every adapter (SQLite, DynamoDB) passes these. */
export function tenantStoreContract(name: string, makeStore: () => Promise<TenantStore>) {
  describe(`TenantStore contract: ${name}`, () => {
    const unique = () => `tenant-${Math.random().toString(36).slice(2)}`;

    it('creates tenants, finds them by name, and maps key hashes to tenants', async () => {
      const store = await makeStore();
      const a = await store.createTenant(unique(), timestamp());
      const b = await store.createTenant(unique(), timestamp());
      expect(await store.findTenantByName(a.name)).toEqual(a);
      expect(await store.findTenantByName(`no-such-tenant-${a.name}`)).toBeNull();
      await store.addKey({
        keyId: `key_${a.id}`,
        tenantId: a.id,
        hash: `h-${a.id}`,
        prefix: 'lib_aaaa',
        createdAt: timestamp(),
      });
      await store.addKey({
        keyId: `key_${b.id}`,
        tenantId: b.id,
        hash: `h-${b.id}`,
        prefix: 'lib_bbbb',
        createdAt: timestamp(),
      });
      expect(await store.tenantForKeyHash(`h-${a.id}`)).toBe(a.id);
      expect(await store.tenantForKeyHash(`h-${b.id}`)).toBe(b.id);
      expect(await store.tenantForKeyHash('h-unknown')).toBeNull();
      expect(await store.countTenants()).toBeGreaterThanOrEqual(2);
    });

    it('revokes one key, or all of a tenant but one', async () => {
      const store = await makeStore();
      const t = await store.createTenant(unique(), timestamp());
      for (const n of [1, 2, 3]) {
        await store.addKey({
          keyId: `key_${t.id}_${n}`,
          tenantId: t.id,
          hash: `h-${t.id}-${n}`,
          prefix: 'lib_x',
          createdAt: timestamp(),
        });
      }
      expect(await store.revokeKey(`key_${t.id}_1`, timestamp())).toBe(true);
      expect(await store.revokeKey(`key_${t.id}_1`, timestamp())).toBe(false);
      expect(await store.tenantForKeyHash(`h-${t.id}-1`)).toBeNull();
      expect(await store.revokeTenantKeys(t.id, timestamp(), `key_${t.id}_3`)).toBe(1);
      expect(await store.tenantForKeyHash(`h-${t.id}-2`)).toBeNull();
      expect(await store.tenantForKeyHash(`h-${t.id}-3`)).toBe(t.id);
      const listed = (await store.listKeys()).filter((k) => k.tenantId === t.id);
      expect(listed).toHaveLength(3);
      expect(listed.filter((k) => k.revokedAt === null).map((k) => k.keyId)).toEqual([`key_${t.id}_3`]);
      expect(listed.every((k) => k.tenantName === t.name)).toBe(true);
    });
  });
}
