import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/** Input rules (docs/api-notes.md, "Requests") through the local server, bytes as a client sends them. */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('input-rules');
});
afterAll(() => server.close());

async function post(path: string, body: Uint8Array | string) {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

const documentCount = async () => (await server.api('/v1/documents?limit=100', { key })).body.count as number;

describe('request bodies', () => {
  it('refuses a body that is not UTF-8 with 400 invalid_json on every JSON route, storing nothing', async () => {
    const before = await documentCount();
    const bad = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xe9]), Buffer.from(' latin-1 byte"}')]);
    for (const path of ['/v1/capture', '/v1/capture/batch', '/v1/chat']) {
      const res = await post(path, bad);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_json', message: 'body: not valid UTF-8 (at byte 12)' });
    }
    const batch = Buffer.concat([
      Buffer.from('{"items":[{"text":"ok"},{"text":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}]}'),
    ]);
    expect((await post('/v1/capture/batch', batch)).status).toBe(400);
    expect(await documentCount()).toBe(before);
  });

  it('answers a body nested 100,000 levels deep on every JSON route with its 4xx, never a 500', async () => {
    const depth = 100_000;
    const array = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const object = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const id = (await server.api('/v1/capture', { key, body: { text: 'A document to patch deeply.' } })).body.id;
    const send = async (method: string, path: string, body: string) => {
      const response = await fetch(server.url + path, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const cases: Array<[string, string, string, number]> = [
      ['POST', '/v1/capture', `{"text":"x","metadata":${object}}`, 422],
      ['POST', '/v1/capture/batch', `{"items":[{"text":"x","metadata":{"k":${array}}}]}`, 200],
      ['POST', '/v1/chat', `{"question":"x","filter":${object}}`, 422],
      ['PATCH', `/v1/documents/${id}`, `{"metadata":${object}}`, 422],
      ['PUT', '/v1/bucket', `{"provider":"s3","bucket":${array}}`, 422],
      // The MCP endpoint hands the message to the protocol: its own refusal (a JSON-RPC error or a tool error).
      ['POST', '/v1/mcp', `{"jsonrpc":"2.0","id":${array},"method":"tools/list"}`, 400],
      [
        'POST',
        '/v1/mcp',
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","filter":${object}}}}`,
        200,
      ],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await send(method, path, body);
      expect(res.status, `${method} ${path} ${body.slice(0, 60)}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    // A tool's filter is read as chat's body reads its own: refused for its first bad field, never measured whole first.
    const tool = await send('POST', '/v1/mcp', cases[cases.length - 1]![2]);
    expect(tool.body.result).toMatchObject({ isError: true });
    expect(tool.body.result.content[0].text).toMatch(/^invalid_request: filter\.a: unknown field/);
  });

  it('stores UTF-8 text exactly, four-byte characters too', async () => {
    const text = 'café € 😀 utf8-exact-marker';
    const res = await post('/v1/capture', Buffer.from(JSON.stringify({ text })));
    expect(res.status).toBe(201);
    const grep = await server.api(`/v1/grep?pattern=${encodeURIComponent('😀 utf8-exact-marker')}`, { key });
    expect(grep.body.results.map((r: { snippet: string }) => r.snippet)).toEqual([`1: ${text}`]);
  });

  it('refuses a lone surrogate escape: it is no text and would be stored as U+FFFD', async () => {
    const res = await post('/v1/capture', '{"text":"half a pair \\ud83d here"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringMatching(/^text: holds a \\u escape of a lone surrogate/),
    });
  });

  it('refuses duplicate keys with 400 invalid_json naming the key, wherever they are', async () => {
    const before = await documentCount();
    const cases: Array<[string, string, string]> = [
      ['/v1/capture', '{"text":"first","text":"second"}', 'text: duplicate key'],
      ['/v1/capture', '{"text":"x","source_ref":"a","source_ref":"b"}', 'source_ref: duplicate key'],
      [
        '/v1/capture/batch',
        '{"items":[{"text":"a"},{"text":"b","title":"t","title":"u"}]}',
        'items.1.title: duplicate key',
      ],
      ['/v1/chat', '{"question":"a?","question":"b?"}', 'question: duplicate key'],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.code).toBe('invalid_json');
      expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true);
    }
    expect(await documentCount()).toBe(before);
  });
});

describe('content_type', () => {
  const file = (content_type: string, marker: string) => ({
    content_base64: Buffer.from(`hello ${marker}`).toString('base64'),
    filename: `${marker}.txt`,
    content_type,
  });

  it.each([
    ['a parameter without a value', 'text/plain; charset'],
    ['a parameter with an empty value', 'text/plain; charset='],
    ['over 255 characters', `text/plain; x=${'a'.repeat(242)}`],
  ])('refuses %s with invalid_item naming content_type', async (_label, contentType) => {
    const res = await server.api('/v1/capture', { key, body: file(contentType, 'refused-ct') });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 'rejected', reject_code: 'invalid_item', retryable: false });
    expect(res.body.detail).toMatch(/^content_type: /);
  });

  it('accepts a media type with parameters, quoted or not, up to 255 characters', async () => {
    for (const [i, contentType] of [
      'text/plain; charset=utf-8',
      'text/plain; charset="utf-8"; format=flowed',
      `text/plain; x=${'a'.repeat(241)}`,
    ].entries()) {
      expect(contentType.length).toBeLessThanOrEqual(255);
      const res = await server.api('/v1/capture', { key, body: file(contentType, `accepted-ct-${i}`) });
      expect(res.status, contentType).toBe(201);
    }
  });

  it('in a batch, refuses the bad item on its own receipt and stores the others', async () => {
    const res = await server.api('/v1/capture/batch', {
      key,
      body: { items: [file('text/plain', 'batch-ct-ok'), file('text/plain;charset', 'batch-ct-bad')] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'rejected']);
    expect(res.body.results[1]).toMatchObject({
      reject_code: 'invalid_item',
      detail: expect.stringMatching(/^content_type: /),
    });
  });
});

describe('titles', () => {
  it('refuses a given title holding a control character (capture, batch item, PATCH), and keeps a default title to one clean line', async () => {
    for (const title of ['tab\there', 'new\nline', 'nul\u0000byte']) {
      const res = await server.api('/v1/capture', { key, body: { text: `titled ${JSON.stringify(title)}`, title } });
      expect(res.status, JSON.stringify(title)).toBe(422);
      expect(res.body).toMatchObject({
        reject_code: 'invalid_item',
        detail: 'title: must not contain control characters',
      });
    }
    const batch = await server.api('/v1/capture/batch', {
      key,
      body: {
        items: [
          { text: 'batch title ok', title: 'Fine title' },
          { text: 'batch title bad', title: 'bad\ttitle' },
        ],
      },
    });
    expect(batch.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'rejected']);

    const created = await server.api('/v1/capture', {
      key,
      body: { text: '  Tab\tseparated\u0000 title line \nsecond' },
    });
    expect(created.status).toBe(201);
    const doc = await server.api(`/v1/documents/${created.body.id}`, { key });
    expect(doc.body.title).toBe('Tab separated title line');
    const patched = await server.api(`/v1/documents/${created.body.id}`, {
      key,
      method: 'PATCH',
      body: { title: 'two\nlines' },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.error.message).toMatch(/title: must not contain control characters/);
    const renamed = await server.api(`/v1/documents/${created.body.id}`, {
      key,
      method: 'PATCH',
      body: { title: 'One line' },
    });
    expect(renamed.body.title).toBe('One line');
  });
});
