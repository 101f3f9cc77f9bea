import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/** replace_source_ref over HTTP on the local stack (docs/api-notes.md, "Replacing a document by source_ref"). */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('replacer');
});
afterAll(() => server.close());

const capture = (body: Record<string, unknown>) => server.api('/v1/capture', { key, body });
const get = (path: string) => server.api(path, { key });
const listIds = async (sourceRef: string, endUser?: string) =>
  (
    await get(
      `/v1/documents?limit=100&source_ref=${encodeURIComponent(sourceRef)}${endUser ? `&end_user_id=${endUser}` : ''}`,
    )
  ).body.documents.map((d: { id: string }) => d.id);
const grepIds = async (pattern: string, endUser?: string) => [
  ...new Set(
    (
      await get(`/v1/grep?limit=200&pattern=${encodeURIComponent(pattern)}${endUser ? `&end_user_id=${endUser}` : ''}`)
    ).body.results.map((r: { file_id: string }) => r.file_id),
  ),
];

describe('POST /v1/capture with replace_source_ref', () => {
  it('replaces the older version: search, grep and the list show only the new; another end user is untouched', async () => {
    const v1 = await capture({ text: 'albatross notes, first draft', source_ref: 'notes/alba.md', end_user_id: 'u1' });
    const theirs = await capture({
      text: 'albatross notes of user two',
      source_ref: 'notes/alba.md',
      end_user_id: 'u2',
    });
    const v2 = await capture({
      text: 'albatross notes, second draft',
      source_ref: 'notes/alba.md',
      end_user_id: 'u1',
      replace_source_ref: true,
    });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ ok: true, status: 'created', source_ref: 'notes/alba.md' });
    expect(v2.body.detail).toContain('replaced 1 older document with this source_ref');
    expect(await listIds('notes/alba.md', 'u1')).toEqual([v2.body.id]);
    expect(await grepIds('albatross', 'u1')).toEqual([v2.body.id]);
    const search = await get('/v1/search?q=albatross%20notes&end_user_id=u1');
    expect(search.body.results.map((r: { id: string }) => r.id)).toEqual([v2.body.id]);
    expect((await get(`/v1/documents/${v1.body.id}?end_user_id=u1`)).status).toBe(404);
    expect(await listIds('notes/alba.md', 'u2')).toEqual([theirs.body.id]);
  });

  it('refuses replace_source_ref without source_ref, and a non-boolean, as invalid_item', async () => {
    const missing = await capture({ text: 'x', replace_source_ref: true });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ status: 'rejected', reject_code: 'invalid_item' });
    expect(missing.body.detail).toMatch(/^replace_source_ref/);
    const wrongType = await capture({ text: 'x', source_ref: 'a', replace_source_ref: 'yes' });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.reject_code).toBe('invalid_item');
  });

  it('a rejected replacement leaves the old version; dedup + replace removes the others', async () => {
    const a = await capture({ text: 'cormorant content A', source_ref: 'c.md' });
    const bad = await capture({ text: '  ', source_ref: 'c.md', replace_source_ref: true });
    expect(bad.body.status).toBe('rejected');
    expect(await listIds('c.md')).toEqual([a.body.id]);
    const b = await capture({ text: 'cormorant content B', source_ref: 'c.md' });
    expect((await listIds('c.md')).sort()).toEqual([a.body.id, b.body.id].sort());
    const again = await capture({ text: 'cormorant content A', source_ref: 'c.md', replace_source_ref: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'deduped', id: a.body.id });
    expect(await listIds('c.md')).toEqual([a.body.id]);
    expect(await grepIds('cormorant')).toEqual([a.body.id]);
  });

  it('batch items replace too', async () => {
    const v1 = await capture({ text: 'gannet v1', source_ref: 'g.md' });
    const batch = await server.api('/v1/capture/batch', {
      key,
      body: {
        items: [
          { text: 'gannet v2', source_ref: 'g.md', replace_source_ref: true },
          { text: 'unrelated gull', source_ref: 'gull.md' },
        ],
      },
    });
    expect(batch.body.succeeded).toBe(2);
    const id = batch.body.results[0].id;
    expect(await listIds('g.md')).toEqual([id]);
    expect(await grepIds('gannet')).toEqual([id]);
    expect(id).not.toBe(v1.body.id);
  });

  it('within one batch, versions of one source_ref land in request order: the last one stays', async () => {
    // Items of a batch are captured at once; those naming the same source_ref still wait for each other,
    // so a file read first (slower) does not land after the text that follows it.
    const file = (text: string) => ({
      content_base64: Buffer.from(`<html><body><p>${text}</p></body></html>`).toString('base64'),
      filename: 'shearwater.html',
      content_type: 'text/html',
      source_ref: 's.md',
      replace_source_ref: true,
    });
    const text = (t: string) => ({ text: t, source_ref: 's.md', replace_source_ref: true });
    const batch = await server.api('/v1/capture/batch', {
      key,
      body: {
        items: [
          file('shearwater version 0'),
          text('shearwater version 1'),
          file('shearwater version 2'),
          text('shearwater version 3'),
          { text: 'an unrelated petrel', source_ref: 'petrel.md' },
        ],
      },
    });
    expect(batch.body.succeeded).toBe(5);
    expect(batch.body.results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4]);
    const last = batch.body.results[3].id;
    expect(await listIds('s.md')).toEqual([last]);
    expect(await grepIds('shearwater version')).toEqual([last]);
    expect(await listIds('petrel.md')).toEqual([batch.body.results[4].id]);
  });

  it('a reader polling grep and the list during 30 replaces always sees exactly one version', async () => {
    await capture({ text: 'puffin version 0', source_ref: 'p.md' });
    let done = false;
    const counts = { grep: [] as number[], list: [] as number[] };
    const reader = async () => {
      while (!done) {
        const [g, l] = await Promise.all([grepIds('puffin version'), listIds('p.md')]);
        counts.grep.push(g.length);
        counts.list.push(l.length);
      }
    };
    const readers = [reader(), reader()];
    for (let i = 1; i <= 30; i++) {
      const r = await capture({
        text: `puffin version ${i}\n${'more lines\n'.repeat(i)}`,
        source_ref: 'p.md',
        replace_source_ref: true,
      });
      expect(r.body.status).toBe('created');
    }
    done = true;
    await Promise.all(readers);
    expect(counts.grep.length).toBeGreaterThan(20);
    expect([...new Set(counts.grep)]).toEqual([1]);
    expect([...new Set(counts.list)]).toEqual([1]);
    expect(await grepIds('puffin version 30')).toHaveLength(1);
  });
});
