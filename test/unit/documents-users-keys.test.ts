import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lambdas/core/errors.js';
import { hashKey, KeyService } from '../../lambdas/core/keys.js';
import type { ApiKeyRecord } from '../../lambdas/core/model.js';
import type { TenantStore } from '../../lambdas/core/ports.js';
import { coreHarness } from '../support/core-harness.js';
import type { InMemoryBlobStore } from '../support/in-memory-ports.js';

describe('DocumentService', () => {
  it('deletes a document from records, index and blobs; the payload can then be captured anew', async () => {
    const { services, ports } = coreHarness();
    const ref = { tenantId: 't', endUserId: null };
    const item = {
      contentBase64: Buffer.from('gone soon').toString('base64'),
      filename: 'g.txt',
      contentType: 'text/plain',
    };
    const created = await services.capture.capture(ref, item);
    await services.documents.delete(ref, created.id!);
    await expect(services.documents.get(ref, created.id!)).rejects.toMatchObject({ code: 'not_found' });
    expect((ports.blobs as InMemoryBlobStore).blobs.size).toBe(0);
    expect((await services.search.search(ref, { q: 'gone soon', limit: 5 })).items).toEqual([]);
    expect((await services.grep.grep(ref, { pattern: 'gone', caseSensitive: false, limit: 5 })).items).toEqual([]);
    const again = await services.capture.capture(ref, item);
    expect(again.status).toBe('created');
    expect(again.id).not.toBe(created.id);
  });

  it('never shows a document outside its library', async () => {
    const { services } = coreHarness();
    const doc = await services.capture.capture({ tenantId: 't', endUserId: 'a' }, { text: 'private' });
    for (const other of [
      { tenantId: 't', endUserId: null },
      { tenantId: 't', endUserId: 'b' },
      { tenantId: 'u', endUserId: 'a' },
    ]) {
      await expect(services.documents.get(other, doc.id!)).rejects.toMatchObject({ code: 'not_found' });
      await expect(services.documents.delete(other, doc.id!)).rejects.toMatchObject({ code: 'not_found' });
      expect((await services.documents.list(other, { limit: 10 })).items).toEqual([]);
    }
  });
});

describe('EndUserService', () => {
  it('erases an end user completely and reports what it removed', async () => {
    const { services, ports } = coreHarness();
    const alice = { tenantId: 't', endUserId: 'alice' };
    await services.capture.capture(alice, { text: 'alice note' });
    await services.capture.capture(alice, {
      contentBase64: Buffer.from('alice file').toString('base64'),
      filename: 'a.txt',
      contentType: 'text/plain',
    });
    await services.capture.capture({ tenantId: 't', endUserId: 'bob' }, { text: 'bob note' });
    const report = await services.endUsers.erase('t', 'alice');
    expect(report).toEqual({
      id: 'alice',
      deleted: true,
      documents_deleted: 2,
      blobs_deleted: 1,
      messages_deleted: 0,
      blobs_pending: 0,
    });
    expect((ports.blobs as InMemoryBlobStore).blobs.size).toBe(0);
    expect((await services.search.search(alice, { q: 'alice note', limit: 5 })).items).toEqual([]);
    expect((await services.endUsers.list('t', { limit: 10 })).items.map((u) => u.id)).toEqual(['bob']);
    await expect(services.endUsers.erase('t', 'alice')).rejects.toMatchObject({ code: 'not_found' });
    expect((await services.capture.capture(alice, { text: 'alice note' })).status).toBe('created');
  });

  it('refuses to erase an end user of another tenant', async () => {
    const { services } = coreHarness();
    await services.capture.capture({ tenantId: 't', endUserId: 'carol' }, { text: 'x' });
    await expect(services.endUsers.erase('other-tenant', 'carol')).rejects.toBeInstanceOf(DomainError);
    expect((await services.endUsers.list('t', { limit: 10 })).items.map((u) => u.id)).toEqual(['carol']);
  });
});

describe('KeyService', () => {
  it('issues keys stored only as hashes, rotates keeping the tenant, and revokes', async () => {
    const { services, db } = coreHarness();
    const first = await services.keys.create('acme');
    expect(first.api_key).toMatch(/^lib_[0-9A-Za-z]{40}$/);
    const stored = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    expect(stored).not.toContain(first.api_key);
    expect(stored).toContain(hashKey(first.api_key));
    expect(await services.keys.authenticate(first.api_key)).toBe(first.tenant_id);

    const rotated = await services.keys.rotate('acme');
    expect(rotated.tenant_id).toBe(first.tenant_id);
    expect(await services.keys.authenticate(first.api_key)).toBeNull();
    expect(await services.keys.authenticate(rotated.api_key)).toBe(first.tenant_id);

    const other = await services.keys.create('globex');
    expect(other.tenant_id).not.toBe(first.tenant_id);
    expect(await services.keys.revoke({ keyId: other.key_id })).toBe(1);
    expect(await services.keys.authenticate(other.api_key)).toBeNull();
    expect(await services.keys.authenticate(`lib_${'x'.repeat(40)}`)).toBeNull();
    expect(await services.keys.authenticate('not a key')).toBeNull();
  });

  it('lists keys by tenant name, then creation time, whatever order the store returns them in', async () => {
    const key = (tenantName: string, createdAt: string, keyId: string): ApiKeyRecord => ({
      keyId,
      tenantId: `ten_${tenantName}`,
      tenantName,
      prefix: 'lib_x',
      createdAt,
      revokedAt: null,
    });
    const stored = [
      key('globex', '2025-01-02', 'key_4'),
      key('acme', '2025-01-03', 'key_2'),
      key('globex', '2025-01-01', 'key_3'),
      key('acme', '2025-01-01', 'key_1'),
    ];
    const tenants = { listKeys: async () => [...stored] } as unknown as TenantStore;
    const keys = new KeyService({ tenants, clock: { now: () => 'now' } });
    expect((await keys.list()).map((k) => k.keyId)).toEqual(['key_1', 'key_2', 'key_3', 'key_4']);

    // The same order from the SQLite store, whose query no longer orders.
    const { services } = coreHarness();
    const globex = await services.keys.create('globex');
    const acme1 = await services.keys.create('acme');
    const acme2 = await services.keys.create('acme');
    expect((await services.keys.list()).map((k) => k.keyId)).toEqual([acme1.key_id, acme2.key_id, globex.key_id]);
  });
});
