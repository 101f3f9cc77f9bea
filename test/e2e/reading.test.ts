import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/local-server.js';

let server: TestServer;
let key: string;
const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;

beforeAll(async () => {
  server = await startTestServer(); // the real offline sentence encoder
  key = await server.newKey('reader');
  const texts = [
    'My cat sleeps all day on the warm windowsill.',
    'Quarterly revenue grew by twelve percent, led by the enterprise segment.',
    'The invoice reference for the roof repair is INV-7731-QX.',
    'Recipe: knead the dough, let it rise for an hour, then bake at 220 degrees.',
    'The hiking trail climbs through pine forest to a glacier lake.',
  ];
  for (const text of texts) await server.api('/v1/capture', { key, body: { text, source_ref: text.slice(0, 8) } });
});
afterAll(() => server.close());

const get = (path: string) => server.api(path, { key });

describe('GET /v1/search', () => {
  it('finds a paraphrase by meaning alone (no shared word)', async () => {
    const res = await get(`/v1/search?q=${encodeURIComponent('feline napping')}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toBe('feline napping');
    expect(res.body.results[0].snippet).toContain('cat sleeps');
    expect(res.body.results[0].from_keyword).toBe(false);
  });

  it('finds an exact code by keyword, marked from_keyword', async () => {
    const res = await get('/v1/search?q=INV-7731-QX');
    const top = res.body.results[0];
    expect(top.snippet).toContain('INV-7731-QX');
    expect(top.from_keyword).toBe(true);
    expect(top).toMatchObject({
      kind: 'file_excerpt',
      id: expect.stringMatching(/^file_/),
      title: expect.any(String),
      source_ref: 'The invo',
    });
    expect(top.content_date).toMatch(DATE);
    for (const r of res.body.results) expect(r.score).toBeGreaterThanOrEqual(0), expect(r.score).toBeLessThanOrEqual(1);
  });

  it('pages with limit and cursor, each result once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: {
        body: { results: Array<{ id: string }>; has_more: boolean; next_cursor: string | null; count: number };
      } = await get(`/v1/search?q=the&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.body.count).toBe(res.body.results.length);
      expect(res.body.results.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.results.map((r) => r.id));
      cursor = res.body.has_more ? res.body.next_cursor : null;
      if (!res.body.has_more) expect(res.body.next_cursor).toBeNull();
    } while (cursor);
    expect(seen.length).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by kind', async () => {
    expect((await get('/v1/search?q=cat&kind=chat,creation')).body.results).toEqual([]);
    expect((await get('/v1/search?q=cat&kind=file_excerpt')).body.results.length).toBeGreaterThan(0);
  });

  it.each([
    ['/v1/search', /^q: /],
    ['/v1/search?q=', /^q: /],
    ['/v1/search?q=%20%20%0A', /^q: must not be blank/],
    [`/v1/search?q=${'a'.repeat(1001)}`, /^q: /],
    ['/v1/search?q=a&limit=0', /^limit: /],
    ['/v1/search?q=a&limit=51', /^limit: /],
    ['/v1/search?q=a&limit=ten', /^limit: /],
    ['/v1/search?q=a&kind=photos', /^kind: /],
    ['/v1/search?q=a&cursor=nonsense', /^cursor: /],
    ['/v1/search?q=a&end_user_id=', /^end_user_id: /],
  ])('refuses %s with 422 naming the field', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(message);
  });

  it('refuses a cursor used with another query', async () => {
    const first = await get('/v1/search?q=the&limit=1');
    const res = await get(`/v1/search?q=lake&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^cursor: /);
  });
});

describe('GET /v1/grep', () => {
  it('matches literally with line numbers, case switch and file filter', async () => {
    const doc = await server.api('/v1/capture', {
      key,
      body: { text: 'line one\nsee a.b*c(1) here\nabbbc(1) is not it\nA.B*C(1) loud', title: 'Formulae' },
    });
    const res = await get(`/v1/grep?pattern=${encodeURIComponent('a.b*c(1)')}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pattern: 'a.b*c(1)', count: 2, has_more: false, next_cursor: null });
    expect(res.body.results).toEqual([
      {
        file_id: doc.body.id,
        title: 'Formulae',
        source_ref: null,
        line: 2,
        snippet: '2: see a.b*c(1) here',
        content_date: expect.stringMatching(DATE),
        metadata: {},
      },
      {
        file_id: doc.body.id,
        title: 'Formulae',
        source_ref: null,
        line: 4,
        snippet: '4: A.B*C(1) loud',
        content_date: expect.stringMatching(DATE),
        metadata: {},
      },
    ]);
    const sensitive = await get(`/v1/grep?case_sensitive=true&pattern=${encodeURIComponent('A.B*C(1)')}`);
    expect(sensitive.body.results.map((r: { line: number }) => r.line)).toEqual([4]);
    const filtered = await get(`/v1/grep?pattern=the&file_id=${doc.body.id}`);
    expect(filtered.body.results).toEqual([]);
  });

  it.each([
    ['/v1/grep', /^pattern: /],
    [`/v1/grep?pattern=${'p'.repeat(513)}`, /^pattern: /],
    ['/v1/grep?pattern=a&limit=201', /^limit: /],
    ['/v1/grep?pattern=a&case_sensitive=yes', /^case_sensitive: /],
  ])('refuses %s with 422', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(message);
  });
});

describe('documents', () => {
  it('lists newest first with paging and a source_ref filter; gets one; deletes it everywhere', async () => {
    const page1 = await get('/v1/documents?limit=2');
    expect(page1.body.count).toBe(2);
    expect(page1.body.has_more).toBe(true);
    const page2 = await get(`/v1/documents?limit=100&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
    const all = [...page1.body.documents, ...page2.body.documents];
    expect(new Set(all.map((d: { id: string }) => d.id)).size).toBe(all.length);
    const dates = all.map((d: { created_at: string }) => d.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);

    const bySource = await get(`/v1/documents?source_ref=${encodeURIComponent('The invo')}`);
    expect(bySource.body.documents).toHaveLength(1);
    const target = bySource.body.documents[0];
    expect((await get(`/v1/documents/${target.id}`)).body).toEqual(target);

    const deleted = await server.api(`/v1/documents/${target.id}`, { key, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: target.id, deleted: true, blobs_deleted: 0, blobs_pending: 0 });
    expect((await get(`/v1/documents/${target.id}`)).status).toBe(404);
    expect((await server.api(`/v1/documents/${target.id}`, { key, method: 'DELETE' })).status).toBe(404);
    expect((await get('/v1/grep?pattern=INV-7731')).body.results).toEqual([]);
    expect((await get('/v1/search?q=INV-7731-QX')).body.results.map((r: { id: string }) => r.id)).not.toContain(
      target.id,
    );
    const recaptured = await server.api('/v1/capture', {
      key,
      body: { text: 'The invoice reference for the roof repair is INV-7731-QX.' },
    });
    expect(recaptured.status).toBe(201);
  });

  it('decodes a document id in the path once, as every path parameter is (API Gateway passes them URL-encoded)', async () => {
    const id = (await server.api('/v1/capture', { key, body: { text: 'A percent-encoded path names me.' } })).body.id;
    const encoded = id.replace('_', '%5F');
    expect((await get(`/v1/documents/${encoded}`)).body.id).toBe(id);
    expect((await get(`/v1/documents/${encoded}/content`)).body.lines).toEqual(['A percent-encoded path names me.']);
    expect((await get(`/v1/documents/${encoded}/file`)).status).toBe(200);
    const patched = await server.api(`/v1/documents/${encoded}`, { key, method: 'PATCH', body: { title: 'Encoded' } });
    expect(patched.body).toMatchObject({ id, title: 'Encoded' });
    const bad = await get('/v1/documents/%E0%A4%A');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('id: must be URL-encoded');
    expect((await server.api(`/v1/documents/${encoded}`, { key, method: 'DELETE' })).body).toMatchObject({ id });
    expect((await get(`/v1/documents/${id}`)).status).toBe(404);
  });

  it('answers 404 for an unknown document and 422 for a bad limit', async () => {
    const missing = await get('/v1/documents/file_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await get('/v1/documents?limit=101')).status).toBe(422);
  });
});
