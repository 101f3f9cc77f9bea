import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Metadata, filters and PATCH over HTTP on the local stack (API.md,
 * "Structure"): captured metadata comes back everywhere, filters keep
 * exactly the matching documents on search, grep, the document list and
 * chat, malformed filters are 422 naming their path, and a PATCH is seen at
 * once.
 */
let server: TestServer;
let key: string;

const NOTES = [
  {
    name: 'kickoff',
    text: 'Apollo kickoff meeting: the zebra launch plan was agreed.',
    metadata: { project: 'apollo', year: 2024, tags: ['meeting', 'launch'], due: '2024-03-01' },
  },
  {
    name: 'budget',
    text: 'Apollo budget review: zebra costs rose by ten percent.',
    metadata: { project: 'apollo', year: 2025, tags: ['finance'], urgent: true },
  },
  {
    name: 'gemini',
    text: 'Gemini retrospective: the zebra tests were flaky.',
    metadata: { project: 'gemini', year: 2024, tags: ['meeting'], due: '2025-06-30T12:00:00Z' },
  },
  { name: 'plain', text: 'A plain zebra note without any metadata at all.', metadata: undefined },
  {
    name: 'typed',
    text: 'A zebra note whose year is written as text.',
    metadata: { year: '2024', project: 'apollo-2' },
  },
] as const;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('structure');
  for (const note of NOTES) {
    const res = await server.api('/v1/capture', {
      key,
      body: {
        text: note.text,
        title: note.name,
        source_ref: `notes/${note.name}.md`,
        ...(note.metadata ? { metadata: note.metadata } : {}),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[note.name] = res.body.id;
  }
}, 60_000);
afterAll(() => server?.close());

const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));
const names = (fileIds: string[]) => fileIds.map((id) => Object.keys(ids).find((n) => ids[n] === id)).sort();
/** The notes above (source_ref notes/...) that the filter keeps; other tests capture more documents. */
const listed = async (filter: unknown) => {
  const res = await server.api(
    `/v1/documents?limit=100&filter=${q({ and: [filter, { source_ref: { prefix: 'notes/' } }] })}`,
    { key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return names(res.body.documents.map((d: { id: string }) => d.id));
};

describe('metadata', () => {
  it('is returned by the document get and list, search, grep and chat sources; {} when none', async () => {
    const doc = await server.api(`/v1/documents/${ids.kickoff}`, { key });
    expect(doc.body.metadata).toEqual(NOTES[0].metadata);
    expect((await server.api(`/v1/documents/${ids.plain}`, { key })).body.metadata).toEqual({});
    const search = await server.api('/v1/search?q=apollo%20kickoff%20zebra&limit=10', { key });
    const kickoff = search.body.results.find((r: { id: string }) => r.id === ids.kickoff);
    expect(kickoff.metadata).toEqual(NOTES[0].metadata);
    const grep = await server.api('/v1/grep?pattern=budget%20review', { key });
    expect(grep.body.results.map((r: { metadata: unknown }) => r.metadata)).toEqual([NOTES[1].metadata]);
    const chat = await server.api('/v1/chat', {
      key,
      body: { question: 'What happened at the Apollo kickoff meeting?' },
    });
    expect(chat.status).toBe(200);
    const source = chat.body.sources.find((s: { file_id: string }) => s.file_id === ids.kickoff);
    expect(source?.metadata).toEqual(NOTES[0].metadata);
  });

  it('breaking a rule rejects the capture (422, reject_code invalid_request) naming the key, and stores nothing', async () => {
    const bad: Array<[unknown, string]> = [
      [{ '9lives': 'x' }, 'metadata.9lives'],
      [{ nested: { a: 1 } }, 'metadata.nested'],
      [{ n: Number.MAX_VALUE * 0 + 1, list: [1, 2] }, 'metadata.list'],
      [{ long: 'x'.repeat(1025) }, 'metadata.long'],
      [Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])), 'metadata'],
      [{ tags: Array.from({ length: 65 }, (_, i) => `t${i}`) }, 'metadata.tags'],
      [{ nothing: null }, 'metadata.nothing'],
      ['not an object', 'metadata'],
    ];
    for (const [metadata, path] of bad) {
      const res = await server.api('/v1/capture', {
        key,
        body: { text: `rejected ${path} ${JSON.stringify(metadata).length}`, metadata },
      });
      expect(res.status, JSON.stringify(metadata)).toBe(422);
      expect(res.body.reject_code).toBe('invalid_request');
      expect(res.body.detail).toContain(path);
    }
    const batch = await server.api('/v1/capture/batch', {
      key,
      body: {
        items: [
          { text: 'batch ok', metadata: { a: 1 } },
          { text: 'batch bad', metadata: { a: { b: 1 } } },
        ],
      },
    });
    expect(batch.body.results.map((r: { reject_code: string | null }) => r.reject_code)).toEqual([
      null,
      'invalid_request',
    ]);
    const found = await server.api('/v1/grep?pattern=batch%20bad', { key });
    expect(found.body.results).toEqual([]);
  });

  it('a deduped capture keeps the stored metadata', async () => {
    const again = await server.api('/v1/capture', {
      key,
      body: { text: NOTES[0].text, metadata: { project: 'other' } },
    });
    expect(again.status).toBe(200);
    expect((await server.api(`/v1/documents/${ids.kickoff}`, { key })).body.metadata.project).toBe('apollo');
  });
});

describe('filters', () => {
  it('every operator, arrays, dates, missing keys and type mismatches, on the document list', async () => {
    expect(await listed({ 'metadata.project': 'apollo' })).toEqual(['budget', 'kickoff']);
    expect(await listed({ 'metadata.project': { ne: 'apollo' } })).toEqual(['gemini', 'plain', 'typed']);
    expect(await listed({ 'metadata.project': { in: ['gemini', 'apollo-2'] } })).toEqual(['gemini', 'typed']);
    expect(await listed({ 'metadata.project': { nin: ['apollo'] } })).toEqual(['gemini', 'plain', 'typed']);
    expect(await listed({ 'metadata.project': { prefix: 'apollo' } })).toEqual(['budget', 'kickoff', 'typed']);
    // An array matches when any element does.
    expect(await listed({ 'metadata.tags': 'meeting' })).toEqual(['gemini', 'kickoff']);
    expect(await listed({ 'metadata.tags': { in: ['finance', 'launch'] } })).toEqual(['budget', 'kickoff']);
    // A number is not a string: year "2024" (text) does not match 2024, nor the other way.
    expect(await listed({ 'metadata.year': 2024 })).toEqual(['gemini', 'kickoff']);
    expect(await listed({ 'metadata.year': '2024' })).toEqual(['typed']);
    expect(await listed({ 'metadata.year': { gte: 2025 } })).toEqual(['budget']);
    expect(await listed({ 'metadata.year': { gt: 2023, lt: 2025 } })).toEqual(['gemini', 'kickoff']);
    // Missing keys match only ne, nin and exists: false.
    expect(await listed({ 'metadata.urgent': { exists: true } })).toEqual(['budget']);
    expect(await listed({ 'metadata.urgent': { exists: false } })).toEqual(['gemini', 'kickoff', 'plain', 'typed']);
    expect(await listed({ 'metadata.urgent': true })).toEqual(['budget']);
    expect(await listed({ 'metadata.urgent': { ne: true } })).toEqual(['gemini', 'kickoff', 'plain', 'typed']);
    // Dates: metadata strings that are ISO 8601 dates compare as dates.
    expect(await listed({ 'metadata.due': { gte: '2024-06-01' } })).toEqual(['gemini']);
    expect(await listed({ 'metadata.due': { lt: '2025-06-30T13:00:00+01:00' } })).toEqual(['kickoff']);
    // Document fields.
    expect(await listed({ source_ref: { prefix: 'notes/g' } })).toEqual(['gemini']);
    expect(await listed({ title: { in: ['plain', 'typed'] } })).toEqual(['plain', 'typed']);
    expect(await listed({ kind: 'text', 'metadata.project': 'gemini' })).toEqual(['gemini']);
    expect(await listed({ content_type: { prefix: 'text/plain' }, 'metadata.year': 2025 })).toEqual(['budget']);
    expect(await listed({ created_at: { gte: '2020-01-01' }, 'metadata.project': 'gemini' })).toEqual(['gemini']);
    expect(await listed({ created_at: { lt: '2020-01-01' } })).toEqual([]);
    // An equality with a value of another type than the field's matches nothing; it is no error.
    expect(await listed({ created_at: 5 })).toEqual([]);
    expect(await listed({ created_at: 'yesterday' })).toEqual([]);
    expect(await listed({ title: 5 })).toEqual([]);
    expect(await listed({ title: { ne: 5 } })).toEqual([]);
  });

  it('nesting with and, or and not', async () => {
    expect(
      await listed({
        or: [{ 'metadata.project': 'gemini' }, { and: [{ 'metadata.year': 2025 }, { 'metadata.tags': 'finance' }] }],
      }),
    ).toEqual(['budget', 'gemini']);
    expect(await listed({ not: { 'metadata.project': { exists: true } } })).toEqual(['plain']);
    expect(await listed({ and: [{ 'metadata.tags': 'meeting' }, { not: { 'metadata.project': 'gemini' } }] })).toEqual([
      'kickoff',
    ]);
  });

  it('on search (both legs), grep and chat: only what matches', async () => {
    const search = await server.api(`/v1/search?q=zebra&limit=50&filter=${q({ 'metadata.project': 'apollo' })}`, {
      key,
    });
    expect(search.status).toBe(200);
    expect(names(search.body.results.map((r: { id: string }) => r.id))).toEqual(['budget', 'kickoff']);
    // A paraphrase found by meaning alone still obeys the filter.
    const meaning = await server.api(
      `/v1/search?q=${encodeURIComponent('flaky tests retrospective')}&limit=50&filter=${q({ 'metadata.project': 'apollo' })}`,
      { key },
    );
    expect(
      names(meaning.body.results.map((r: { id: string }) => r.id)).every((n) => n === 'budget' || n === 'kickoff'),
    ).toBe(true);
    const grep = await server.api(`/v1/grep?pattern=zebra&filter=${q({ 'metadata.tags': 'meeting' })}`, { key });
    expect(names(grep.body.results.map((r: { file_id: string }) => r.file_id))).toEqual(['gemini', 'kickoff']);
    // The chat would cite the gemini note; filtered to apollo it cannot.
    const unfiltered = await server.api('/v1/chat', {
      key,
      body: { question: 'Were the zebra tests flaky in the Gemini retrospective?' },
    });
    expect(unfiltered.body.sources.map((s: { file_id: string }) => s.file_id)).toContain(ids.gemini);
    const filtered = await server.api('/v1/chat', {
      key,
      body: {
        question: 'Were the zebra tests flaky in the Gemini retrospective?',
        filter: { 'metadata.project': 'apollo' },
      },
    });
    expect(filtered.status).toBe(200);
    for (const s of filtered.body.sources) expect([ids.kickoff, ids.budget]).toContain(s.file_id);
  });

  it('a malformed filter is 422 naming its path, on every route', async () => {
    const cases: Array<[unknown, string]> = [
      [{ and: [{ 'metadata.year': 1 }, { 'metadata.year': { gte: 'soon' } }] }, 'filter.and[1].metadata.year.gte'],
      [{ 'metadata.year': { between: [1, 2] } }, 'filter.metadata.year.between'],
      [{ colour: 'red' }, 'filter.colour'],
      [{ 'metadata.tags': { in: [] } }, 'filter.metadata.tags.in'],
      [{ 'metadata.tags': { in: [{ a: 1 }] } }, 'filter.metadata.tags.in[0]'],
      [{ or: {} }, 'filter.or'],
      [{ created_at: { gt: 20240101 } }, 'filter.created_at.gt'],
      [{ and: [{ or: [{ not: { and: [{ not: { x: 1 } }] } }] }] }, 'filter.and[0].or[0].not.and[0].not'],
      [[1, 2], 'filter'],
    ];
    for (const [filter, path] of cases) {
      for (const route of ['/v1/search?q=zebra&', '/v1/grep?pattern=zebra&', '/v1/documents?']) {
        const res = await server.api(`${route}filter=${q(filter)}`, { key });
        expect(res.status, `${route} ${JSON.stringify(filter)}`).toBe(422);
        expect(res.body.error.code).toBe('invalid_request');
        expect(res.body.error.message, JSON.stringify(filter)).toContain(`${path}:`);
      }
      const chat = await server.api('/v1/chat', { key, body: { question: 'zebra?', filter } });
      expect(chat.status).toBe(422);
      expect(chat.body.error.message).toContain(path);
    }
    // A key given twice: refused in a query parameter as in chat's body (last-wins would filter by a guess).
    const twice = encodeURIComponent('{"metadata.year":2024,"metadata.year":2025}');
    for (const route of ['/v1/search?q=zebra&', '/v1/grep?pattern=zebra&', '/v1/documents?']) {
      const res = await server.api(`${route}filter=${twice}`, { key });
      expect(res.status, route).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid_request' });
      expect(res.body.error.message).toMatch(/^filter\.metadata\.year: duplicate key/);
    }
    const notJson = await server.api('/v1/documents?filter=%7Bnope', { key });
    expect(notJson.status).toBe(422);
    expect(notJson.body.error.message).toContain('filter');
    // Over 16,384 characters of JSON: refused in a chat's body as in a query parameter.
    const huge = { 'metadata.tag': { in: Array.from({ length: 50 }, (_, i) => `${i}${'x'.repeat(400)}`) } };
    const chat = await server.api('/v1/chat', { key, body: { question: 'zebra?', filter: huge } });
    expect(chat.status).toBe(422);
    expect(chat.body.error.message).toMatch(/^filter: at most 16384 characters/);
    // Nested far deeper than a filter may be: refused for its depth, before anything measures it whole.
    const deep = `${'['.repeat(20_000)}"x"${']'.repeat(20_000)}`;
    const nested = await server.api('/v1/chat', {
      key,
      rawBody: `{"question":"zebra?","filter":{"a":${deep}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.status).toBe(422);
  });

  it('pages under a selective filter: every match once, no short page before the end, a cursor only with its filter', async () => {
    const batch = await server.api('/v1/capture/batch', {
      key,
      body: {
        items: Array.from({ length: 20 }, (_, i) => ({
          text: `Paging zebra note ${i}.`,
          metadata: { page: i % 4 === 0 ? 'kept' : 'other', i },
        })),
      },
    });
    expect(batch.body.succeeded).toBe(20);
    const kept = batch.body.results
      .filter((_: unknown, i: number) => i % 4 === 0)
      .map((r: { id: string }) => r.id)
      .sort();
    // Findable by meaning first: a search cursor is a place in the ranking, which moves while vectors arrive (api-notes.md).
    for (const r of batch.body.results) await server.settled(key, r.id);
    const filter = q({ 'metadata.page': 'kept' });
    for (const route of ['documents', 'search']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const path: string =
          route === 'documents'
            ? `/v1/documents?limit=2&filter=${filter}${cursor ? `&cursor=${cursor}` : ''}`
            : `/v1/search?q=paging%20zebra%20note&limit=2&filter=${filter}${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await server.api(path, { key });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const page = (route === 'documents' ? res.body.documents : res.body.results).map((d: { id: string }) => d.id);
        if (res.body.has_more) expect(page).toHaveLength(2);
        seen.push(...page);
        cursor = res.body.next_cursor;
        pages += 1;
      } while (cursor && pages < 20);
      expect(seen.sort(), route).toEqual(kept);
      // Every match once: search has no other apollo notes for this query.
    }
    const first = await server.api(`/v1/documents?limit=2&filter=${filter}`, { key });
    const other = await server.api(
      `/v1/documents?limit=2&filter=${q({ 'metadata.page': 'other' })}&cursor=${first.body.next_cursor}`,
      { key },
    );
    expect(other.status).toBe(422);
  });
});

describe('PATCH /v1/documents/{id}', () => {
  it('changes title, source_ref and metadata (a merge patch) and every read sees it at once', async () => {
    const created = await server.api('/v1/capture', {
      key,
      body: { text: 'The quarterly walrus report.', metadata: { stage: 'draft', tags: ['q3'] } },
    });
    const id = created.body.id;
    const patched = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      body: {
        title: 'Walrus report final',
        source_ref: 'reports/walrus',
        metadata: { stage: 'final', tags: null, owner: 'ann' },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      title: 'Walrus report final',
      source_ref: 'reports/walrus',
      metadata: { stage: 'final', owner: 'ann' },
    });
    expect(Object.keys(patched.body.metadata).sort()).toEqual(['owner', 'stage']);
    const stage = q({ 'metadata.stage': 'final' });
    expect(
      (await server.api(`/v1/documents?filter=${stage}`, { key })).body.documents.map((d: { id: string }) => d.id),
    ).toEqual([id]);
    expect(
      (await server.api(`/v1/grep?pattern=walrus&filter=${stage}`, { key })).body.results.map(
        (r: { file_id: string }) => r.file_id,
      ),
    ).toEqual([id]);
    const search = await server.api(`/v1/search?q=walrus&filter=${stage}`, { key });
    expect(
      search.body.results.map((r: { id: string; title: string; source_ref: string }) => [r.id, r.title, r.source_ref]),
    ).toEqual([[id, 'Walrus report final', 'reports/walrus']]);
    expect(
      (await server.api(`/v1/search?q=walrus&filter=${q({ 'metadata.stage': 'draft' })}`, { key })).body.results,
    ).toEqual([]);
    expect(
      (await server.api(`/v1/documents?source_ref=reports%2Fwalrus`, { key })).body.documents.map(
        (d: { id: string }) => d.id,
      ),
    ).toEqual([id]);
    // source_ref null removes it.
    const cleared = await server.api(`/v1/documents/${id}`, { key, method: 'PATCH', body: { source_ref: null } });
    expect(cleared.body.source_ref).toBeNull();
  });

  it('refuses what breaks the rules, unknown fields, another library and the content', async () => {
    const id = ids.plain;
    const bad: Array<[unknown, string]> = [
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(513) }, 'title'],
      [{ metadata: { 'bad key': 1 } }, 'metadata'],
      [{ metadata: { deep: { a: 1 } } }, 'metadata.deep'],
      [{ text: 'new content' }, 'text'],
      [{ metadata: 'x' }, 'metadata'],
    ];
    for (const [body, field] of bad) {
      const res = await server.api(`/v1/documents/${id}`, { key, method: 'PATCH', body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.message).toContain(field);
    }
    const blank = await server.api(`/v1/documents/${id}`, { key, method: 'PATCH', body: { title: '   ' } });
    expect(blank.status).toBe(422);
    // A merge patch may come as such (RFC 7396's media type); any other type is 415.
    const asMergePatch = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      rawBody: JSON.stringify({ metadata: { patched_as: 'merge-patch' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(asMergePatch.status).toBe(200);
    expect(asMergePatch.body.metadata).toMatchObject({ patched_as: 'merge-patch' });
    const undone = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      rawBody: JSON.stringify({ metadata: { patched_as: null } }),
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
    });
    expect(undone.body.metadata).not.toHaveProperty('patched_as');
    const asText = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      rawBody: JSON.stringify({ title: 'x' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(asText.status).toBe(415);
    // A POST takes JSON only.
    const captureAsMergePatch = await server.api('/v1/capture', {
      key,
      rawBody: JSON.stringify({ text: 'not captured' }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(captureAsMergePatch.status).toBe(415);
    // A key named __proto__ is a key like any other: set, read back, filtered on, removed.
    const proto = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      rawBody: '{"metadata": {"__proto__": "odd", "k": "v"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status, JSON.stringify(proto.body)).toBe(200);
    expect(Object.keys(proto.body.metadata).sort()).toEqual(['__proto__', 'k']);
    expect(await listed({ 'metadata.__proto__': 'odd' })).toEqual(['plain']);
    const unproto = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      rawBody: '{"metadata": {"__proto__": null, "k": null}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(unproto.body.metadata).toEqual({});
    const nested = await server.api(`/v1/documents/${id}`, {
      key,
      method: 'PATCH',
      rawBody: '{"metadata": {"__proto__": {"evil": 1}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.status).toBe(422);
    expect(nested.body.error.message).toContain('metadata.__proto__');
    const other = await server.newKey('structure-other');
    expect(
      (await server.api(`/v1/documents/${id}`, { key: other, method: 'PATCH', body: { title: 'mine now' } })).status,
    ).toBe(404);
    expect(
      (await server.api(`/v1/documents/${id}?end_user_id=bob`, { key, method: 'PATCH', body: { title: 'mine now' } }))
        .status,
    ).toBe(404);
    expect((await server.api(`/v1/documents/${id}`, { key })).body.title).toBe('plain');
  });

  it('metadata: null removes every key (RFC 7396: a patch that is not an object replaces the whole), and filters see it', async () => {
    const created = await server.api('/v1/capture', {
      key,
      body: { text: 'The narwhal survey, all of it.', metadata: { stage: 'draft', tags: ['survey'] } },
    });
    const id = created.body.id;
    const cleared = await server.api(`/v1/documents/${id}`, { key, method: 'PATCH', body: { metadata: null } });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.metadata).toEqual({});
    expect((await server.api(`/v1/documents/${id}`, { key })).body.metadata).toEqual({});
    const draft = await server.api(`/v1/documents?filter=${q({ 'metadata.stage': 'draft' })}`, { key });
    expect(draft.body.documents.map((d: { id: string }) => d.id)).not.toContain(id);
    const search = await server.api(`/v1/search?q=narwhal&filter=${q({ 'metadata.stage': { exists: false } })}`, {
      key,
    });
    expect(search.body.results.map((r: { id: string; metadata: unknown }) => [r.id, r.metadata])).toContainEqual([
      id,
      {},
    ]);
  });
});
