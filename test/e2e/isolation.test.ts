import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Two tenants, each with a shared library and two end users, all holding the
 * same secret-bearing text. No endpoint ever shows one library's material to another.
 */
let server: TestServer;
const keys: Record<string, string> = {};
const LIBRARIES = [
  { tenant: 'acme', user: null },
  { tenant: 'acme', user: 'alice' },
  { tenant: 'acme', user: 'bob' },
  { tenant: 'globex', user: null },
  { tenant: 'globex', user: 'alice' },
] as const;
const owned = new Map<string, Set<string>>(); // library label → its document ids
const label = (lib: { tenant: string; user: string | null }) => `${lib.tenant}/${lib.user ?? 'shared'}`;
const userParam = (user: string | null) => (user ? `&end_user_id=${encodeURIComponent(user)}` : '');

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  keys.acme = await server.newKey('acme');
  keys.globex = await server.newKey('globex');
  for (const lib of LIBRARIES) {
    const ids = new Set<string>();
    for (const text of ['common secret phrase zanzibar', `only for ${label(lib)} zanzibar`]) {
      const res = await server.api('/v1/capture', {
        key: keys[lib.tenant],
        body: { text, ...(lib.user ? { end_user_id: lib.user } : {}) },
      });
      expect(res.status).toBe(201); // the same payload in another library is a new document
      ids.add(res.body.id);
    }
    owned.set(label(lib), ids);
  }
});
afterAll(() => server.close());

describe('isolation between tenants and end users', () => {
  it.each(LIBRARIES.map((lib) => [label(lib), lib] as const))(
    '%s sees only its own documents on every read endpoint',
    async (name, lib) => {
      const mine = owned.get(name)!;
      const key = keys[lib.tenant]!;
      const search = await server.api(`/v1/search?q=zanzibar&limit=50${userParam(lib.user)}`, { key });
      expect(new Set(search.body.results.map((r: { id: string }) => r.id))).toEqual(mine);
      const grep = await server.api(`/v1/grep?pattern=zanzibar&limit=200${userParam(lib.user)}`, { key });
      expect(new Set(grep.body.results.map((r: { file_id: string }) => r.file_id))).toEqual(mine);
      const docs = await server.api(`/v1/documents?limit=100${userParam(lib.user)}`, { key });
      expect(new Set(docs.body.documents.map((d: { id: string }) => d.id))).toEqual(mine);

      for (const [otherName, otherIds] of owned) {
        if (otherName === name) continue;
        for (const id of otherIds) {
          expect(
            (await server.api(`/v1/documents/${id}${userParam(lib.user).replace('&', '?')}`, { key })).status,
          ).toBe(404);
          expect(
            (await server.api(`/v1/grep?pattern=zanzibar&file_id=${id}${userParam(lib.user)}`, { key })).body.results,
          ).toEqual([]);
        }
      }
    },
  );

  it("lists only the calling tenant's end users", async () => {
    const acme = await server.api('/v1/end-users', { key: keys.acme });
    expect(acme.body.end_users.map((u: { id: string }) => u.id)).toEqual(['alice', 'bob']);
    expect(acme.body.end_users.every((u: { document_count: number }) => u.document_count === 2)).toBe(true);
    const globex = await server.api('/v1/end-users', { key: keys.globex });
    expect(globex.body.end_users.map((u: { id: string }) => u.id)).toEqual(['alice']);
  });

  it("cannot delete another tenant's document or end user", async () => {
    const [globexDoc] = owned.get('globex/shared')!;
    expect((await server.api(`/v1/documents/${globexDoc}`, { key: keys.acme, method: 'DELETE' })).status).toBe(404);
    expect((await server.api(`/v1/documents/${globexDoc}`, { key: keys.globex })).status).toBe(200);
    // acme's "alice" erasure must leave globex's "alice" whole.
    const erased = await server.api('/v1/end-users/alice', { key: keys.acme, method: 'DELETE' });
    expect(erased.body).toMatchObject({ id: 'alice', deleted: true, documents_deleted: 2 });
    const globexAlice = await server.api('/v1/documents?end_user_id=alice', { key: keys.globex });
    expect(globexAlice.body.documents).toHaveLength(2);
  });

  it('reads never create an end user', async () => {
    await server.api('/v1/search?q=zanzibar&end_user_id=reader-only', { key: keys.acme });
    await server.api('/v1/grep?pattern=zanzibar&end_user_id=reader-only', { key: keys.acme });
    await server.api('/v1/documents?end_user_id=reader-only', { key: keys.acme });
    const users = await server.api('/v1/end-users', { key: keys.acme });
    expect(users.body.end_users.map((u: { id: string }) => u.id)).not.toContain('reader-only');
    expect((await server.api('/v1/end-users/reader-only', { key: keys.acme, method: 'DELETE' })).status).toBe(404);
  });
});
