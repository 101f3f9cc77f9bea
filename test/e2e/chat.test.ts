import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../lambdas/core/chunking.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import { FALCON, REVENUE, SOURDOUGH } from '../support/chat-notes.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/** Chat over HTTP against the real local server, with the real sentence encoder. */
let server: TestServer;
let keyA: string;
let keyB: string;
const ids: Record<string, string> = {};

const FALCON_B = `Falcon programme (tenant B)
The Falcon launch is planned for June 2028 after the second design review.`;

const HERON = `Heron field notes
The grey heron nests in colonies near the lake from February to June.`;

const SNIPPET_LINE = /^(\d+): (.*)$/;

async function capture(key: string, text: string, title: string, endUserId?: string): Promise<string> {
  const res = await server.api('/v1/capture', {
    key,
    body: { text, title, ...(endUserId ? { end_user_id: endUserId } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const chat = (key: string, question: string, endUserId?: string) =>
  server.api('/v1/chat', { key, body: { question, ...(endUserId ? { end_user_id: endUserId } : {}) } });

beforeAll(async () => {
  server = await startTestServer();
  keyA = await server.newKey('tenant-a');
  keyB = await server.newKey('tenant-b');
  ids.falcon = await capture(keyA, FALCON, 'Falcon status');
  ids.revenue = await capture(keyA, REVENUE, 'Revenue 2026');
  ids.sourdough = await capture(keyA, SOURDOUGH, 'Sourdough');
  ids.falconB = await capture(keyB, FALCON_B, 'Falcon B');
  ids.heron = await capture(keyA, HERON, 'Heron', 'user-1');
}, 120_000);
afterAll(async () => server?.close());

describe('POST /v1/chat', () => {
  it('answers from the library and cites real lines, each with its line number as grep reports it', async () => {
    const res = await chat(keyA, 'When is the Falcon launch now?');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.body.run_id).toMatch(/^run_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.body.reply).toContain('14 March 2027');
    expect(res.body.reply).toMatch(/\[1\]/);
    expect(res.body.sources.length).toBeGreaterThan(0);
    expect(res.body.sources[0]).toMatchObject({ kind: 'file', title: 'Falcon status', file_id: ids.falcon });
    expect(res.body.tokens_used).toBeGreaterThan(0);

    for (const source of res.body.sources) {
      for (const snippetLine of source.snippet.split('\n')) {
        const [, line, text] = SNIPPET_LINE.exec(snippetLine)!;
        const pattern = encodeURIComponent(text!.replace(/…/g, '').slice(0, 60));
        const grep = await server.api(`/v1/grep?pattern=${pattern}&case_sensitive=true&file_id=${source.file_id}`, {
          key: keyA,
        });
        expect(grep.body.results.map((r: { line: number }) => r.line)).toContain(Number(line));
      }
    }
    expect(res.body.sources[0].snippet).toContain('3: The Falcon launch moved to 14 March 2027');
    // Every marker in the reply is listed by exactly one source, with lines that source's snippet shows.
    const markers = [...res.body.reply.matchAll(/\[(\d+)\]/g)].map((m: RegExpMatchArray) => Number(m[1]));
    for (const marker of markers) {
      const owners = res.body.sources.filter((s: { markers: { marker: number }[] }) =>
        s.markers.some((m) => m.marker === marker),
      );
      expect(owners, `[${marker}]`).toHaveLength(1);
      for (const line of owners[0].markers.find((m: { marker: number }) => m.marker === marker).lines) {
        expect(owners[0].snippet).toMatch(new RegExp(`(^|\n)${line}: `));
      }
    }
    expect(res.body.sources[0].markers).toContainEqual({ marker: markers[0], lines: [3] });
  });

  it('answers a question worded unlike the document', async () => {
    const res = await chat(keyA, 'Who leads the Falcon team?');
    expect(res.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.falcon]);
    expect(res.body.reply).toContain('Ingrid Solberg');
  });

  it('says the library does not hold the answer, with no sources, when nothing relevant is there', async () => {
    for (const question of [
      'What is the capital of Peru?',
      'Who won the 1998 football World Cup final?',
      'How do I renew my passport?',
    ]) {
      const res = await chat(keyA, question);
      expect(res.status).toBe(200);
      expect(res.body.sources).toEqual([]);
      expect(res.body.artifacts).toEqual([]);
      expect(res.body.reply).toMatch(/does not hold the answer/);
    }
  });

  it('never cites another tenant or another library of the same tenant', async () => {
    const b = await chat(keyB, 'When is the Falcon launch?');
    expect(b.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.falconB]);
    expect(b.body.reply).toContain('June 2028');
    expect(b.body.reply).not.toContain('2027');

    // The end user's library holds only the heron notes; the shared library's Falcon is out of reach.
    const user = await chat(keyA, 'When is the Falcon launch?', 'user-1');
    expect(user.body.sources).toEqual([]);
    const heron = await chat(keyA, 'When does the grey heron nest?', 'user-1');
    expect(heron.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.heron]);

    // And the shared library never reaches the end user's notes.
    const shared = await chat(keyA, 'When does the grey heron nest?');
    expect(shared.body.sources).toEqual([]);
  });

  it('makes a table and a chart from the cited facts, found later by search as creations', async () => {
    const table = await chat(keyA, 'Make a table of the quarterly revenue');
    expect(table.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.revenue]);
    const [artifact] = table.body.artifacts;
    expect(artifact).toMatchObject({ type: 'table', content_type: 'text/markdown' });
    expect(artifact.id).toMatch(/^crt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(artifact.content).toContain('| Q1 | 120 |');
    expect(artifact.content).toContain('| Q4 | 200 |');

    const chart = await chat(keyA, 'Draw a bar chart of the quarterly revenue');
    const [spec] = chart.body.artifacts;
    expect(spec).toMatchObject({ type: 'chart', content_type: 'application/vnd.vegalite.v5+json' });
    const vega = JSON.parse(spec.content);
    expect(vega.$schema).toMatch(/vega-lite\/v5/);
    expect(vega.data.values.map((v: { label: string; value: number }) => [v.label, v.value])).toEqual([
      ['Q1', 120],
      ['Q2', 150],
      ['Q3', 90],
      ['Q4', 200],
    ]);

    const creations = await server.api(`/v1/search?q=${encodeURIComponent('quarterly revenue')}&kind=creation`, {
      key: keyA,
    });
    const found = creations.body.results.map((r: { id: string }) => r.id);
    expect(found).toEqual(expect.arrayContaining([artifact.id, spec.id]));
    expect(creations.body.results.every((r: { kind: string }) => r.kind === 'creation')).toBe(true);
    expect(creations.body.results[0].source_ref).toMatch(/^run_/);
  });

  it('remembers each question and reply: later searches find them as kind chat', async () => {
    const res = await chat(keyA, 'How often do I feed the sourdough starter?');
    expect(res.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.sourdough]);
    const search = await server.api(`/v1/search?q=${encodeURIComponent('sourdough starter feed')}&kind=chat`, {
      key: keyA,
    });
    const chats = search.body.results.filter((r: { source_ref: string }) => r.source_ref === res.body.run_id);
    expect(chats).toHaveLength(2);
    for (const hit of chats) {
      expect(hit.kind).toBe('chat');
      expect(hit.id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(hit.content_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    }
    expect(chats.map((c: { snippet: string }) => c.snippet)).toEqual(
      expect.arrayContaining(['How often do I feed the sourdough starter?', res.body.reply]),
    );
    // Another tenant's search never sees them.
    const other = await server.api(`/v1/search?q=${encodeURIComponent('sourdough starter feed')}&kind=chat`, {
      key: keyB,
    });
    expect(other.body.results.filter((r: { source_ref: string }) => r.source_ref === res.body.run_id)).toEqual([]);
    expect(other.body.results.map((r: { snippet: string }) => r.snippet)).not.toContain(
      'How often do I feed the sourdough starter?',
    );
  });

  it('validates the request', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^question: /],
      [{ question: '' }, /^question: /],
      [{ question: '   ' }, /^question: must not be blank/],
      [{ question: 'x'.repeat(4001) }, /^question: /],
      [{ question: 7 }, /^question: /],
      [{ question: 'hi', end_user_id: 'a\u0007b' }, /^end_user_id: /],
      [{ question: 'hi', extra: true }, /extra: unknown field/],
    ];
    for (const [body, message] of cases) {
      const res = await server.api('/v1/chat', { key: keyA, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    }
    expect((await server.api('/v1/chat', { body: { question: 'hi' } })).status).toBe(401);
    expect(
      (
        await server.api('/v1/chat', {
          key: keyA,
          rawBody: '{"question":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await server.api('/v1/chat', { key: keyA, method: 'GET' })).status).toBe(405);
  });
});

describe('OpenAPI', () => {
  it('describes chat and usage from the schemas that validate them', async () => {
    const doc = (await server.api('/v1/openapi.json')).body;
    const chatOp = doc.paths['/v1/chat'].post;
    expect(chatOp.requestBody.content['application/json'].schema).toBeTruthy();
    expect(JSON.stringify(doc.components.schemas.ChatRequest)).toContain('4000');
    // The id's shape is stated, as the server checks it: a client generated from the document refuses what the server would.
    const { pattern } = doc.components.schemas.ChatRequest.properties.conversation_id;
    expect(new RegExp(pattern).test('cnv_01JDQ3S5Z2XKJ8W3M6N9P4R7TB')).toBe(true);
    for (const bad of ['cnv_1', 'file_01JDQ3S5Z2XKJ8W3M6N9P4R7TB', 'cnv_01JDQ3S5Z2XKJ8W3M6N9P4R7TBX'])
      expect(new RegExp(pattern).test(bad), bad).toBe(false);
    expect(doc.components.schemas.ChatResponse.required).toEqual(
      expect.arrayContaining(['reply', 'artifacts', 'sources', 'tokens_used', 'run_id']),
    );
    const usageParams = doc.paths['/v1/usage'].get.parameters.map((p: { name: string }) => p.name);
    expect(usageParams).toEqual(['from', 'to']);
  });
});

describe('erasing an end user', () => {
  it('erases its chats and creations too', async () => {
    await capture(keyA, REVENUE, 'Revenue 2026', 'user-2');
    const res = await chat(keyA, 'Make a list of the quarterly revenue', 'user-2');
    expect(res.body.artifacts).toHaveLength(1);
    await server.stack.settled(); // the reply's vectors are attached in the background
    const before = await server.api(`/v1/search?q=${encodeURIComponent('quarterly revenue')}&end_user_id=user-2`, {
      key: keyA,
    });
    expect(before.body.results.map((r: { kind: string }) => r.kind).sort()).toEqual([
      'chat',
      'chat',
      'creation',
      'file_excerpt',
    ]);

    const erased = await server.api('/v1/end-users/user-2', { key: keyA, method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ documents_deleted: 1, messages_deleted: 2 });
    const after = await server.api(`/v1/search?q=${encodeURIComponent('quarterly revenue')}&end_user_id=user-2`, {
      key: keyA,
    });
    expect(after.body.results).toEqual([]);
    // The shared library's own revenue document and chats are untouched.
    const shared = await server.api(`/v1/search?q=${encodeURIComponent('quarterly revenue')}&kind=file_excerpt`, {
      key: keyA,
    });
    expect(shared.body.results.map((r: { id: string }) => r.id)).toContain(ids.revenue);
  });

  it('a chat creates the end user, as a capture does', async () => {
    await chat(keyA, 'Anything about herons?', 'user-3');
    const users = await server.api('/v1/end-users?limit=100', { key: keyA });
    expect(users.body.end_users.map((u: { id: string }) => u.id)).toContain('user-3');
    const erased = await server.api('/v1/end-users/user-3', { key: keyA, method: 'DELETE' });
    expect(erased.body).toMatchObject({ documents_deleted: 0, messages_deleted: 2 });
  });
});

describe('GET /v1/usage', () => {
  it('adds up captures, chat calls and tokens per tenant and day, charging end users to their tenant', async () => {
    const key = await server.newKey('tenant-usage');
    const texts = [FALCON, SOURDOUGH];
    await capture(key, texts[0]!, 'Falcon');
    await capture(key, texts[1]!, 'Sourdough', 'someone');
    await server.api('/v1/capture', { key, body: { text: FALCON } }); // deduped: not a new capture
    const first = await chat(key, 'When is the Falcon launch?');
    const second = await chat(key, 'How long is the loaf baked with the lid on?', 'someone');
    const third = await chat(key, 'What is the capital of Peru?');
    expect(second.body.sources).toHaveLength(1);

    // Embedding tokens as the stack's embedder reports them (its own tokenizer): the captures' passages, and
    // the replies, embedded after each chat answered (their questions keep the vector they were searched with).
    const passagesOf = (all: string[]) => all.flatMap((t) => chunkText(t).map((p) => p.text));
    const embedderTokens = async (all: string[]) =>
      (await server.stack.ports.embedder.embed(passagesOf(all), 'passage')).tokens;
    const captureTokens = await embedderTokens(texts);
    const replyTokens = await embedderTokens([first.body.reply, second.body.reply, third.body.reply]);
    expect(replyTokens).toBeGreaterThan(0);
    const chatTokens = first.body.tokens_used + second.body.tokens_used + third.body.tokens_used + replyTokens;
    await server.stack.settled(); // the replies' vectors (and their charge) are background work
    const res = await server.api('/v1/usage', { key });
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body).toMatchObject({
      from: `${today.slice(0, 7)}-01`,
      captures: 2,
      chat_calls: 3,
      ocr_pages: 0,
      tokens_used: captureTokens + chatTokens,
    });
    expect(res.body.tenant_id).toBeTruthy();
    expect(res.body.to >= today).toBe(true);
    expect(res.body.days).toEqual([
      { date: today, tokens_used: captureTokens + chatTokens, chat_calls: 3, ocr_pages: 0, captures: 2 },
    ]);

    // Another tenant's spend is its own.
    const other = await server.api(`/v1/usage?from=${today}&to=${today}`, { key: keyB });
    expect(other.body.tenant_id).not.toBe(res.body.tenant_id);
    expect(other.body.captures).toBe(1);
    expect(other.body.chat_calls).toBeGreaterThan(0);

    const past = await server.api('/v1/usage?from=2020-01-01&to=2020-12-31', { key });
    expect(past.body).toMatchObject({ from: '2020-01-01', to: '2020-12-31', tokens_used: 0, captures: 0, days: [] });
    const month = await server.api('/v1/usage?from=2024-02-10', { key });
    expect(month.body).toMatchObject({ from: '2024-02-10', to: '2024-02-29' });
  });

  it("charges a search's query embedding to the tenant, every time it is asked; a grep embeds nothing", async () => {
    const key = await server.newKey('search-usage');
    await capture(key, FALCON, 'Falcon');
    await server.stack.settled();
    const tokensUsed = async () => (await server.api('/v1/usage', { key })).body.tokens_used as number;
    const before = await tokensUsed();
    const q = 'when is the Falcon launch';
    const queryTokens = (await server.stack.ports.embedder.embed([q], 'query')).tokens;
    expect(queryTokens).toBeGreaterThan(0);
    expect((await server.api(`/v1/search?q=${encodeURIComponent(q)}`, { key })).status).toBe(200);
    expect(await tokensUsed()).toBe(before + queryTokens);
    // Asked again, remembered or not, it is charged again: usage counts what was asked.
    await server.api(`/v1/search?q=${encodeURIComponent(q)}&end_user_id=someone`, { key });
    expect(await tokensUsed()).toBe(before + 2 * queryTokens);
    await server.api('/v1/grep?pattern=Falcon', { key });
    expect(await tokensUsed()).toBe(before + 2 * queryTokens);
  });

  it('rejects bad dates and an inverted range with 422', async () => {
    for (const query of [
      'from=2026-13-01',
      'to=2026-02-30',
      'from=yesterday',
      'from=2026-1-5',
      'from=2026-05-02&to=2026-05-01',
    ]) {
      const res = await server.api(`/v1/usage?${query}`, { key: keyA });
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(/^(from|to): /);
    }
    expect((await server.api('/v1/usage')).status).toBe(401);
  });
});

describe('a chat model that is down', () => {
  it('answers 503 unavailable with Retry-After, and stores and charges nothing', async () => {
    const down = await startTestServer({
      embedder: new HashingEmbedder(),
      chatModel: {
        name: 'down',
        judges: true,
        answer: async () => {
          throw new BackendUnavailableError('model down', 4);
        },
      },
    });
    try {
      const key = await down.newKey('t');
      await down.api('/v1/capture', { key, body: { text: FALCON } });
      const res = await down.api('/v1/chat', { key, body: { question: 'When is the Falcon launch?' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('4');
      expect(res.body.error).toMatchObject({ code: 'unavailable', retry_after: 4 });
      const chats = await down.api(`/v1/search?q=Falcon&kind=chat`, { key });
      expect(chats.body.results).toEqual([]);
      expect((await down.api('/v1/usage', { key })).body.chat_calls).toBe(0);
    } finally {
      await down.close();
    }
  });
});
