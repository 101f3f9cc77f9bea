import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveFromSecretsKey, END_USER_LOG_KEY_PURPOSE } from '../../lambdas/adapters/local/aes-secret-cipher.js';
import { hashEndUser, useEndUserLogKey } from '../../lambdas/http/observability.js';

/** What logs used to carry: an unkeyed SHA-256 prefix, which anyone can recompute for a guessed id. */
const unkeyed = (tenantId: string, endUserId: string) =>
  createHash('sha256').update(tenantId).update('\u0000').update(endUserId).digest('hex').slice(0, 16);

describe('end users in logs: a keyed HMAC with the deployment secret', () => {
  const one = Buffer.alloc(32, 1);
  const two = Buffer.alloc(32, 2);

  it('is stable for one secret, differs between secrets, and is not the unkeyed SHA-256 prefix', () => {
    const a = hashEndUser('ten_1', 'alice@example.com', one);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(hashEndUser('ten_1', 'alice@example.com', one)).toBe(a);
    expect(hashEndUser('ten_1', 'alice@example.com', two)).not.toBe(a);
    expect(a).not.toBe(unkeyed('ten_1', 'alice@example.com'));
    expect(hashEndUser('ten_1', 'alice@example.com', two)).not.toBe(unkeyed('ten_1', 'alice@example.com'));
  });

  it('names the same id in two tenants, or split differently between tenant and id, differently', () => {
    expect(hashEndUser('ten_1', 'alice', one)).not.toBe(hashEndUser('ten_2', 'alice', one));
    expect(hashEndUser('ten_1', 'alice', one)).not.toBe(hashEndUser('ten_1a', 'lice', one));
  });

  it('uses the key the wiring gives, from then on, and refuses a short one', () => {
    const before = hashEndUser('ten_1', 'bob');
    useEndUserLogKey(one);
    expect(hashEndUser('ten_1', 'bob')).toBe(hashEndUser('ten_1', 'bob', one));
    expect(hashEndUser('ten_1', 'bob')).not.toBe(before); // the process's own random key until then
    useEndUserLogKey(two);
    expect(hashEndUser('ten_1', 'bob')).toBe(hashEndUser('ten_1', 'bob', two));
    expect(() => useEndUserLogKey(Buffer.alloc(16))).toThrow(/at least 32 bytes/);
    expect(hashEndUser('ten_1', 'bob')).toBe(hashEndUser('ten_1', 'bob', two));
  });

  it('locally, is derived from the data folder secrets key: the same for the same folder, its own per purpose, and not the secrets key', () => {
    const secrets = randomBytes(32);
    const logKey = deriveFromSecretsKey(secrets, END_USER_LOG_KEY_PURPOSE);
    expect(logKey).toHaveLength(32);
    expect(deriveFromSecretsKey(Buffer.from(secrets), END_USER_LOG_KEY_PURPOSE)).toEqual(logKey);
    expect(logKey.equals(secrets)).toBe(false);
    expect(deriveFromSecretsKey(secrets, 'another purpose').equals(logKey)).toBe(false);
    expect(deriveFromSecretsKey(randomBytes(32), END_USER_LOG_KEY_PURPOSE).equals(logKey)).toBe(false);
  });
});
