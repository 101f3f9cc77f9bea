import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/local-server.js';

let server: TestServer;
let key: string;
const b64 = (s: string) => Buffer.from(s).toString('base64');

beforeAll(async () => {
  server = await startTestServer();
  key = await server.newKey('capture-tenant');
});
afterAll(() => server.close());

const capture = (body: unknown) => server.api('/v1/capture', { key, body });

describe('POST /v1/capture', () => {
  it('creates (201), then dedups (200) with the same id, the full receipt each time', async () => {
    const created = await capture({ text: 'Meeting notes\nThe launch code is ZX-81.', source_ref: 'notes/1' });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(/^req_/);
    expect(created.body).toEqual({
      ok: true,
      status: 'created',
      dedup: false,
      detail: expect.any(String),
      id: expect.stringMatching(/^file_[0-9A-HJKMNP-TV-Z]{26}$/),
      file_id: created.body.id,
      reject_code: null,
      retryable: null,
      source_ref: 'notes/1',
    });
    const again = await capture({ text: 'Meeting notes\nThe launch code is ZX-81.', source_ref: 'other', title: 'x' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      ok: true,
      status: 'deduped',
      dedup: true,
      id: created.body.id,
      file_id: created.body.id,
      source_ref: 'notes/1',
    });
  });

  it('gives exactly one created among 25 concurrent identical captures', async () => {
    const responses = await Promise.all(Array.from({ length: 25 }, () => capture({ text: 'twenty-five at once' })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(24);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    const docs = await server.api('/v1/documents?limit=100', { key });
    expect(docs.body.documents.filter((d: { id: string }) => d.id === responses[0]!.body.id)).toHaveLength(1);
  });

  it('accepts text-like files as bytes and reports their metadata', async () => {
    const csv = 'name,amount\nalpha,3\nbeta,4\n';
    const res = await capture({ content_base64: b64(csv), filename: 'amounts.csv', content_type: 'text/csv' });
    expect(res.status).toBe(201);
    const doc = await server.api(`/v1/documents/${res.body.id}`, { key });
    expect(doc.body).toMatchObject({
      id: res.body.id,
      file_id: res.body.id,
      title: 'amounts.csv',
      filename: 'amounts.csv',
      content_type: 'text/csv',
      size_bytes: Buffer.byteLength(csv),
      kind: 'file',
      status: 'ready',
      storage: 'service',
      line_count: 3,
      source_ref: null,
    });
    expect(doc.body.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['neither text nor bytes', { title: 'x' }, 'missing_content'],
    [
      'both text and bytes',
      { text: 'a', content_base64: b64('a'), filename: 'a.txt', content_type: 'text/plain' },
      'ambiguous_content',
    ],
    ['text of the wrong type', { text: 42 }, 'invalid_item'],
    ['title too long', { text: 'a', title: 't'.repeat(513) }, 'invalid_item'],
    ['source_ref too long', { text: 'a', source_ref: 's'.repeat(2049) }, 'invalid_item'],
    [
      'filename too long',
      { content_base64: b64('a'), filename: 'f'.repeat(256), content_type: 'text/plain' },
      'invalid_item',
    ],
    [
      'content_type not a media type',
      { content_base64: b64('a'), filename: 'a', content_type: 'plain' },
      'invalid_item',
    ],
    ['bytes without filename', { content_base64: b64('a'), content_type: 'text/plain' }, 'invalid_item'],
    ['a text push with a filename (only a file has one)', { text: 'a note', filename: 'a.txt' }, 'invalid_item'],
    [
      'a text push with a content_type (it is text/plain)',
      { text: 'a note', content_type: 'text/html' },
      'invalid_item',
    ],
    ['an unknown field', { text: 'a', colour: 'red' }, 'invalid_item'],
    ['end_user_id with a control character', { text: 'a', end_user_id: 'bad\u0007id' }, 'invalid_item'],
    ['end_user_id too long', { text: 'a', end_user_id: 'u'.repeat(257) }, 'invalid_item'],
    ['broken base64', { content_base64: '%%%', filename: 'a.txt', content_type: 'text/plain' }, 'invalid_base64'],
    ['blank text', { text: '   \n ' }, 'empty_content'],
    ['text over 2 MiB', { text: 'x'.repeat(2 * 1024 * 1024 + 1) }, 'too_large'],
    [
      'an executable',
      {
        content_base64: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]).toString('base64'),
        filename: 'a.out',
        content_type: 'application/x-executable',
      },
      'unsupported_type',
    ],
  ])('rejects %s with 422 and its reject code, storing nothing', async (_label, body, code) => {
    const before = (await server.api('/v1/documents?limit=100', { key })).body.count;
    const res = await capture(body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      ok: false,
      status: 'rejected',
      dedup: false,
      id: null,
      file_id: null,
      reject_code: code,
      retryable: false,
      source_ref: null,
    });
    expect(res.body.detail).toEqual(expect.any(String));
    expect((await server.api('/v1/documents?limit=100', { key })).body.count).toBe(before);
  });

  it('names the offending field in the detail', async () => {
    expect((await capture({ text: 'a', title: 7 })).body.detail).toMatch(/^title: /);
    expect((await capture({ text: 'a', colour: 'red' })).body.detail).toMatch(/colour/);
  });
});

describe('POST /v1/capture/batch', () => {
  const batch = (body: unknown) => server.api('/v1/capture/batch', { key, body });

  it('processes good and bad items on their own receipts, in order', async () => {
    const res = await batch({
      items: [
        { text: 'batch good one' },
        { text: '' },
        'not an object',
        { text: 'batch good two', end_user_id: 'item-user' },
        { text: 'batch good one' },
      ],
      end_user_id: 'batch-user',
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    expect(res.body.succeeded).toBe(3);
    expect(
      res.body.results.map((r: { index: number; status: string; reject_code: string | null }) => [
        r.index,
        r.status,
        r.reject_code,
      ]),
    ).toEqual([
      [0, 'created', null],
      [1, 'rejected', 'empty_content'],
      [2, 'rejected', 'invalid_item'],
      [3, 'created', null],
      [4, 'deduped', null],
    ]);
    expect(res.body.results[4].id).toBe(res.body.results[0].id);
    // The item's end_user_id wins over the batch's.
    const itemUser = await server.api('/v1/documents?end_user_id=item-user', { key });
    expect(itemUser.body.documents.map((d: { id: string }) => d.id)).toEqual([res.body.results[3].id]);
    const batchUser = await server.api('/v1/documents?end_user_id=batch-user', { key });
    expect(batchUser.body.documents.map((d: { id: string }) => d.id)).toEqual([res.body.results[0].id]);
  });

  it.each([
    ['21 items', { items: Array.from({ length: 21 }, (_, i) => ({ text: `item ${i}` })) }, /^items: /],
    ['zero items', { items: [] }, /^items: /],
    ['items not an array', { items: { text: 'a' } }, /^items: /],
    ['no items', {}, /^items: /],
    ['a bad batch end_user_id', { items: [{ text: 'a' }], end_user_id: '' }, /^end_user_id: /],
  ])('refuses %s with 422 invalid_request and stores nothing', async (_label, body, message) => {
    const before = (await server.api('/v1/documents?limit=100', { key })).body.count;
    const res = await batch(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(message),
      request_id: res.headers.get('x-request-id'),
    });
    expect((await server.api('/v1/documents?limit=100', { key })).body.count).toBe(before);
  });
});
