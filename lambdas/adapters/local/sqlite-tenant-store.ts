import { newId } from '../../core/ids.js';
import type { ApiKeyRecord, TenantRecord } from '../../core/model.js';
import type { TenantStore } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_tenant ON api_keys(tenant_id);
`;

export class SqliteTenantStore implements TenantStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  async createTenant(name: string, at: string): Promise<TenantRecord> {
    const tenant = { id: newId('ten'), name, createdAt: at };
    this.db.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)').run(tenant.id, name, at);
    return tenant;
  }

  async findTenantByName(name: string): Promise<TenantRecord | null> {
    const row = this.db.prepare('SELECT id, name, created_at FROM tenants WHERE name = ?').get(name) as
      | { id: string; name: string; created_at: string }
      | undefined;
    return row ? { id: row.id, name: row.name, createdAt: row.created_at } : null;
  }

  async countTenants(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM tenants').get() as { n: number }).n;
  }

  async addKey(key: {
    keyId: string;
    tenantId: string;
    hash: string;
    prefix: string;
    createdAt: string;
  }): Promise<void> {
    this.db
      .prepare('INSERT INTO api_keys (key_id, tenant_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(key.keyId, key.tenantId, key.hash, key.prefix, key.createdAt);
  }

  async tenantForKeyHash(hash: string): Promise<string | null> {
    const row = this.db.prepare('SELECT tenant_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').get(hash) as
      | { tenant_id: string }
      | undefined;
    return row?.tenant_id ?? null;
  }

  /** Every key, in no particular order (KeyService orders them). */
  async listKeys(): Promise<ApiKeyRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT k.key_id, k.tenant_id, t.name, k.prefix, k.created_at, k.revoked_at
         FROM api_keys k JOIN tenants t ON t.id = k.tenant_id`,
      )
      .all() as Array<{
      key_id: string;
      tenant_id: string;
      name: string;
      prefix: string;
      created_at: string;
      revoked_at: string | null;
    }>;
    return rows.map((r) => ({
      keyId: r.key_id,
      tenantId: r.tenant_id,
      tenantName: r.name,
      prefix: r.prefix,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
  }

  async revokeKey(keyId: string, at: string): Promise<boolean> {
    return (
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL').run(at, keyId)
        .changes > 0
    );
  }

  async revokeTenantKeys(tenantId: string, at: string, keep?: string): Promise<number> {
    return this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND revoked_at IS NULL AND key_id IS NOT ?')
      .run(at, tenantId, keep ?? null).changes;
  }
}
