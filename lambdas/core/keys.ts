import { createHash, randomBytes } from 'node:crypto';
import { newId } from './ids.js';
import type { ApiKeyRecord } from './model.js';
import type { Clock, TenantStore } from './ports.js';

/**
 * API keys: `lib_` + 40 random base62 characters (about 238 bits). Only the
 * SHA-256 of a key is stored; a key this long needs no slow hash.
 */
const KEY_PATTERN = /^lib_[0-9A-Za-z]{40}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');
export const looksLikeKey = (key: string): boolean => KEY_PATTERN.test(key);

function generateKey(): string {
  let out = 'lib_';
  while (out.length < 44) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < 44) out += BASE62[byte % 62]; // 248 = 4*62: no modulo bias
    }
  }
  return out;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byTenantThenCreated = (a: ApiKeyRecord, b: ApiKeyRecord) =>
  compare(a.tenantName, b.tenantName) || compare(a.createdAt, b.createdAt) || compare(a.keyId, b.keyId);

export interface IssuedKey {
  tenant_id: string;
  tenant: string;
  key_id: string;
  api_key: string;
}

export class KeyService {
  constructor(private readonly deps: { tenants: TenantStore; clock: Clock }) {}

  /** Creates the tenant when new, and a key for it. */
  async create(tenantName: string): Promise<IssuedKey> {
    const now = this.deps.clock.now();
    const tenant =
      (await this.deps.tenants.findTenantByName(tenantName)) ?? (await this.deps.tenants.createTenant(tenantName, now));
    return this.issue(tenant.id, tenant.name, now);
  }

  /** Replaces every key of a tenant with a new one; the tenant and its data stay. */
  async rotate(tenantName: string): Promise<IssuedKey> {
    const tenant = await this.deps.tenants.findTenantByName(tenantName);
    if (!tenant) throw new Error(`no tenant named ${tenantName}`);
    const now = this.deps.clock.now();
    const issued = await this.issue(tenant.id, tenant.name, now);
    await this.deps.tenants.revokeTenantKeys(tenant.id, now, issued.key_id);
    return issued;
  }

  async revoke(keyIdOrTenant: { keyId: string } | { tenant: string }): Promise<number> {
    const now = this.deps.clock.now();
    if ('keyId' in keyIdOrTenant) return (await this.deps.tenants.revokeKey(keyIdOrTenant.keyId, now)) ? 1 : 0;
    const tenant = await this.deps.tenants.findTenantByName(keyIdOrTenant.tenant);
    if (!tenant) throw new Error(`no tenant named ${keyIdOrTenant.tenant}`);
    return this.deps.tenants.revokeTenantKeys(tenant.id, now);
  }

  /** Every key, by tenant name then creation time (then id); the stores return them in any order. */
  async list(): Promise<ApiKeyRecord[]> {
    return (await this.deps.tenants.listKeys()).sort(byTenantThenCreated);
  }

  /** The tenant of an active key, or null. */
  async authenticate(key: string): Promise<string | null> {
    if (!looksLikeKey(key)) return null;
    return this.deps.tenants.tenantForKeyHash(hashKey(key));
  }

  private async issue(tenantId: string, tenantName: string, now: string): Promise<IssuedKey> {
    const apiKey = generateKey();
    const keyId = newId('key');
    await this.deps.tenants.addKey({
      keyId,
      tenantId,
      hash: hashKey(apiKey),
      prefix: apiKey.slice(0, 8),
      createdAt: now,
    });
    return { tenant_id: tenantId, tenant: tenantName, key_id: keyId, api_key: apiKey };
  }
}
