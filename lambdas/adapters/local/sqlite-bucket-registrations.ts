import type { BucketHealth, BucketRegistrationRecord, BucketRegistrationStore } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bucket_registrations (
  tenant_id TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  bucket TEXT NOT NULL,
  region TEXT NOT NULL,
  endpoint TEXT,
  prefix TEXT NOT NULL,
  auth TEXT NOT NULL,
  role_arn TEXT,
  access_key_id TEXT,
  sealed_secret TEXT,
  location TEXT NOT NULL,
  verified_at TEXT NOT NULL,
  state TEXT NOT NULL,
  last_error TEXT,
  last_error_at TEXT
);
CREATE TABLE IF NOT EXISTS bucket_external_ids (
  tenant_id TEXT PRIMARY KEY,
  external_id TEXT NOT NULL
);
`;

interface Row {
  tenant_id: string;
  provider: BucketRegistrationRecord['provider'];
  bucket: string;
  region: string;
  endpoint: string | null;
  prefix: string;
  auth: BucketRegistrationRecord['auth'];
  role_arn: string | null;
  access_key_id: string | null;
  sealed_secret: string | null;
  location: string;
  verified_at: string;
  state: BucketRegistrationRecord['state'];
  last_error: string | null;
  last_error_at: string | null;
}

const fromRow = (r: Row): BucketRegistrationRecord => ({
  tenantId: r.tenant_id,
  provider: r.provider,
  bucket: r.bucket,
  region: r.region,
  endpoint: r.endpoint,
  prefix: r.prefix,
  auth: r.auth,
  roleArn: r.role_arn,
  accessKeyId: r.access_key_id,
  sealedSecret: r.sealed_secret,
  location: r.location,
  verifiedAt: r.verified_at,
  state: r.state,
  lastError: r.last_error,
  lastErrorAt: r.last_error_at,
});

/** Registrations and external ids in the same SQLite file as everything else; the secret column holds sealed values only. */
export class SqliteBucketRegistrations implements BucketRegistrationStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  async get(tenantId: string): Promise<BucketRegistrationRecord | null> {
    const row = this.db.prepare('SELECT * FROM bucket_registrations WHERE tenant_id = ?').get(tenantId) as
      | Row
      | undefined;
    return row ? fromRow(row) : null;
  }

  async put(r: BucketRegistrationRecord): Promise<void> {
    this.db
      .prepare(`INSERT OR REPLACE INTO bucket_registrations
      (tenant_id, provider, bucket, region, endpoint, prefix, auth, role_arn, access_key_id, sealed_secret, location, verified_at, state, last_error, last_error_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        r.tenantId,
        r.provider,
        r.bucket,
        r.region,
        r.endpoint,
        r.prefix,
        r.auth,
        r.roleArn,
        r.accessKeyId,
        r.sealedSecret,
        r.location,
        r.verifiedAt,
        r.state,
        r.lastError,
        r.lastErrorAt,
      );
  }

  async delete(tenantId: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM bucket_registrations WHERE tenant_id = ?').run(tenantId).changes > 0;
  }

  async recordHealth(tenantId: string, location: string, health: BucketHealth): Promise<void> {
    this.db
      .prepare(
        'UPDATE bucket_registrations SET state = ?, last_error = ?, last_error_at = ? WHERE tenant_id = ? AND location = ?',
      )
      .run(health.state, health.lastError, health.lastErrorAt, tenantId, location);
  }

  async externalId(tenantId: string, candidate: string): Promise<string> {
    this.db
      .prepare('INSERT OR IGNORE INTO bucket_external_ids (tenant_id, external_id) VALUES (?, ?)')
      .run(tenantId, candidate);
    return (
      this.db.prepare('SELECT external_id FROM bucket_external_ids WHERE tenant_id = ?').get(tenantId) as {
        external_id: string;
      }
    ).external_id;
  }
}
