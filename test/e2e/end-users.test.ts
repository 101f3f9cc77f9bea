import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

let server: TestServer;
let key: string;
const USER = 'user/with spaces & ünïcode';

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('erasure');
});
afterAll(() => server.close());

function blobFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('end users', () => {
  it('lists end users with paging and erases one completely', async () => {
    for (const user of ['u1', 'u2', 'u3', USER]) {
      await server.api('/v1/capture', {
        key,
        body: { text: `note of ${user} about erasure-marker`, end_user_id: user },
      });
    }
    await server.api('/v1/capture', {
      key,
      body: {
        content_base64: Buffer.from('file of user erasure-marker').toString('base64'),
        filename: 'f.txt',
        content_type: 'text/plain',
        end_user_id: USER,
      },
    });
    const blobsBefore = blobFiles(join(server.dataDir, 'blobs')).length;

    const page1 = await server.api('/v1/end-users?limit=2', { key });
    expect(page1.body).toMatchObject({ count: 2, has_more: true });
    const page2 = await server.api(`/v1/end-users?limit=10&cursor=${encodeURIComponent(page1.body.next_cursor)}`, {
      key,
    });
    const ids = [...page1.body.end_users, ...page2.body.end_users].map((u: { id: string }) => u.id);
    expect(ids.sort()).toEqual(['u1', 'u2', 'u3', USER].sort());
    const entry = [...page1.body.end_users, ...page2.body.end_users].find((u: { id: string }) => u.id === USER);
    expect(entry).toMatchObject({
      document_count: 2,
      created_at: expect.any(String),
      last_active_at: expect.any(String),
    });

    const erased = await server.api(`/v1/end-users/${encodeURIComponent(USER)}`, { key, method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({
      id: USER,
      deleted: true,
      documents_deleted: 2,
      blobs_deleted: 1,
      messages_deleted: 0,
      blobs_pending: 0,
    });
    expect(blobFiles(join(server.dataDir, 'blobs')).length).toBe(blobsBefore - 1);

    const q = `end_user_id=${encodeURIComponent(USER)}`;
    expect((await server.api(`/v1/search?q=erasure-marker&${q}`, { key })).body.results).toEqual([]);
    expect((await server.api(`/v1/grep?pattern=erasure-marker&${q}`, { key })).body.results).toEqual([]);
    expect((await server.api(`/v1/documents?${q}`, { key })).body.documents).toEqual([]);
    const remaining = await server.api('/v1/end-users', { key });
    expect(remaining.body.end_users.map((u: { id: string }) => u.id)).toEqual(['u1', 'u2', 'u3']);
    // The other end users keep their material.
    expect((await server.api('/v1/grep?pattern=erasure-marker&end_user_id=u1', { key })).body.results).toHaveLength(1);

    // Erased means erased: a second delete is 404, and a new capture starts an empty library.
    expect((await server.api(`/v1/end-users/${encodeURIComponent(USER)}`, { key, method: 'DELETE' })).status).toBe(404);
    const fresh = await server.api('/v1/capture', {
      key,
      body: { text: `note of ${USER} about erasure-marker`, end_user_id: USER },
    });
    expect(fresh.status).toBe(201);
    expect((await server.api(`/v1/documents?${q}`, { key })).body.documents).toHaveLength(1);
  });

  it('answers 404 for an unknown end user and 422 for a bad id', async () => {
    expect((await server.api('/v1/end-users/nobody', { key, method: 'DELETE' })).status).toBe(404);
    expect((await server.api(`/v1/end-users/${'x'.repeat(257)}`, { key, method: 'DELETE' })).status).toBe(422);
    expect((await server.api('/v1/end-users/%07bell', { key, method: 'DELETE' })).status).toBe(422);
    expect((await server.api('/v1/end-users?limit=0', { key })).status).toBe(422);
  });

  it('routes a path as sent: /v1/end-users/%2E names an end user ".", not /v1/end-users/', async () => {
    // fetch resolves dot segments before sending; a raw request keeps them, as curl --path-as-is does.
    const deleted = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const req = request({
        hostname,
        port,
        path: '/v1/end-users/%2E',
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(deleted.status).toBe(404);
    expect(JSON.parse(deleted.body).error.message).not.toMatch(/no route/);
  });
});
