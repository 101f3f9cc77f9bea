import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLines } from '../../lambdas/core/chunking.js';
import { makePdf, renderTextPng } from '../extraction/fixtures.js';
import { type CustomerBucket, startCustomerBucket } from '../support/customer-bucket.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Reading a document back on the local stack (API.md "Reading a document
 * back"): GET /v1/documents/{id}/content gives the lines grep and chat cite,
 * numbered alike; GET /v1/documents/{id}/file gives the bytes as captured.
 * Real extraction and OCR; the bytes come through the local gateway.
 */
let server: TestServer;
let key: string;
let bucket: CustomerBucket;
const BUCKET_SECRET = `reader-secret-${crypto.randomUUID()}`;

beforeAll(async () => {
  // A customer's bucket (s3rver on loopback, behind a proxy that can refuse or drop), so private endpoints are allowed here.
  bucket = await startCustomerBucket(['reader-bucket']);
  bucket.addKey('AKIAREADER', BUCKET_SECRET);
  bucket.verifiedKeys.set('AKIAREADER', BUCKET_SECRET);
  server = await startTestServer({
    embedder: new HashingEmbedder(),
    buckets: { allowPrivateEndpoints: true, retryIntervalMs: 3_600_000 },
  });
  key = await server.newKey('reader');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await bucket?.close();
});

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const get = (path: string, k = key) => server.api(path, { key: k });
const capture = async (body: Record<string, unknown>, k = key) => {
  const res = await server.api('/v1/capture', { key: k, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
/** The file route as a client sees it: status, headers and the raw bytes. */
async function download(id: string, query = '', k = key) {
  const res = await fetch(`${server.url}/v1/documents/${id}/file${query}`, {
    headers: { authorization: `Bearer ${k}` },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
const waitSettled = (id: string, k = key): Promise<{ status: string }> => server.settled(k, id);
/** Every line of the document, page after page, `lines` at a time. */
async function readAll(
  id: string,
  lines: number,
  query = '',
): Promise<{ lines: string[]; pages: number; lineCount: number }> {
  const all: string[] = [];
  let from: number | null = 1;
  let pages = 0;
  let lineCount = -1;
  while (from !== null) {
    const page = await get(`/v1/documents/${id}/content?from_line=${from}&lines=${lines}${query}`);
    expect(page.status).toBe(200);
    expect(page.body.from_line).toBe(from);
    all.push(...page.body.lines);
    lineCount = page.body.line_count;
    from = page.body.next_from_line;
    pages += 1;
  }
  return { lines: all, pages, lineCount };
}
/** Each grep hit's line, read back: the content's line N is the line grep quoted as N. */
async function expectGrepLinesReadBack(id: string, pattern: string) {
  const hits = (await get(`/v1/grep?pattern=${encodeURIComponent(pattern)}&file_id=${id}`)).body.results as Array<{
    line: number;
    snippet: string;
  }>;
  expect(hits.length).toBeGreaterThan(0);
  for (const hit of hits) {
    const page = await get(`/v1/documents/${id}/content?from_line=${hit.line}&lines=1`);
    expect(page.body.from_line).toBe(hit.line);
    expect(page.body.lines).toHaveLength(1);
    expect(`${hit.line}: ${page.body.lines[0]}`).toBe(hit.snippet);
    // And from an earlier line, at the offset grep's number says.
    const from = Math.max(1, hit.line - 2);
    const wider = await get(`/v1/documents/${id}/content?from_line=${from}&lines=5`);
    expect(wider.body.lines[hit.line - from]).toBe(page.body.lines[0]);
  }
  return hits;
}

describe('GET /v1/documents/{id}/content', () => {
  const TEXT = 'Harbour log\r\nThe ferry Kestrel leaves at dawn.\rthe tide turns at noon\n\nKestrel returns at dusk.\n';

  it("reads a text push's lines as grep numbers them (\\n, \\r\\n and \\r), a final newline ending the last line", async () => {
    const id = await capture({ text: TEXT, title: 'Harbour log' });
    const hits = await expectGrepLinesReadBack(id, 'kestrel');
    expect(hits.map((h) => h.line)).toEqual([2, 5]);
    const page = await get(`/v1/documents/${id}/content`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      id,
      line_count: 5,
      from_line: 1,
      lines: [
        'Harbour log',
        'The ferry Kestrel leaves at dawn.',
        'the tide turns at noon',
        '',
        'Kestrel returns at dusk.',
      ],
      next_from_line: null,
    });
    expect(page.body.line_count).toBe((await get(`/v1/documents/${id}`)).body.line_count);
    expect(page.body.line_count).toBe(countLines(TEXT));
  });

  it('pages with from_line and lines; next_from_line walks to the end, then null; past the end is no lines', async () => {
    const text = Array.from({ length: 23 }, (_, i) => `row ${i + 1} of the ledger`).join('\n');
    const id = await capture({ text });
    const walked = await readAll(id, 5);
    expect(walked).toEqual({ lines: text.split('\n'), pages: 5, lineCount: 23 });
    const second = await get(`/v1/documents/${id}/content?from_line=6&lines=5`);
    expect(second.body).toMatchObject({
      from_line: 6,
      lines: [
        'row 6 of the ledger',
        'row 7 of the ledger',
        'row 8 of the ledger',
        'row 9 of the ledger',
        'row 10 of the ledger',
      ],
      next_from_line: 11,
    });
    expect((await get(`/v1/documents/${id}/content?from_line=21&lines=3`)).body).toMatchObject({
      lines: ['row 21 of the ledger', 'row 22 of the ledger', 'row 23 of the ledger'],
      next_from_line: null,
    });
    for (const from of [24, 1000]) {
      expect((await get(`/v1/documents/${id}/content?from_line=${from}`)).body).toEqual({
        id,
        line_count: 23,
        from_line: from,
        lines: [],
        next_from_line: null,
      });
    }
    // The default page is 1000 lines.
    const long = await capture({ text: Array.from({ length: 1500 }, (_, i) => `entry ${i + 1}`).join('\n') });
    const first = await get(`/v1/documents/${long}/content`);
    expect(first.body).toMatchObject({ from_line: 1, line_count: 1500, next_from_line: 1001 });
    expect(first.body.lines).toHaveLength(1000);
    expect(first.body.lines[999]).toBe('entry 1000');
  });

  it('stops a page of very long lines before 1 MiB of JSON, holding one line however long', async () => {
    const line = (c: string) => c.repeat(300_000);
    const id = await capture({ text: ['a', 'b', 'c', 'd', 'e'].map(line).join('\n') });
    const page = await get(`/v1/documents/${id}/content?lines=10`);
    expect(page.body.lines).toEqual([line('a'), line('b'), line('c')]);
    expect(page.body.next_from_line).toBe(4);
    expect((await readAll(id, 10)).lines).toHaveLength(5);
    const huge = await capture({ text: `short\n${'z'.repeat(1_500_000)}\nafter` });
    const alone = await get(`/v1/documents/${huge}/content?from_line=2&lines=3`);
    expect(alone.body.lines).toEqual(['z'.repeat(1_500_000)]);
    expect(alone.body.next_from_line).toBe(3);
  });

  it.each([
    ['from_line=0', /^from_line: /],
    ['from_line=-3', /^from_line: /],
    ['from_line=1.5', /^from_line: /],
    ['from_line=first', /^from_line: /],
    ['lines=0', /^lines: /],
    ['lines=5001', /^lines: /],
    ['lines=', /^lines: /],
    ['end_user_id=', /^end_user_id: /],
  ])('refuses %s with 422 naming the field', async (query, message) => {
    const id = await capture({ text: `a document to refuse ${query} on` });
    const res = await get(`/v1/documents/${id}/content?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(message) });
  });

  it('reads a PDF and a photo (OCR) as grep numbers their extracted lines', async () => {
    const pdf = await makePdf([{ text: 'Quarterly summary' }, { text: 'Second page\nThe Xylocarpa grove grew.' }]);
    const pdfId = await capture({ content_base64: b64(pdf), filename: 'grove.pdf', content_type: 'application/pdf' });
    expect((await waitSettled(pdfId)).status).toBe('ready');
    const pdfHits = await expectGrepLinesReadBack(pdfId, 'Xylocarpa');
    expect(pdfHits[0]!.snippet).toContain('The Xylocarpa grove grew.');
    const whole = await readAll(pdfId, 2);
    expect(whole.lineCount).toBe((await get(`/v1/documents/${pdfId}`)).body.line_count);

    const png = await renderTextPng(['Kangaroo meeting at noon'], { fontPx: 40, width: 1000 });
    const pngId = await capture({ content_base64: b64(png), filename: 'whiteboard.png', content_type: 'image/png' });
    expect((await waitSettled(pngId)).status).toBe('ready');
    await expectGrepLinesReadBack(pngId, 'Kangaroo');
  }, 120_000);
});

describe('where a search result is (line_start, line_end)', () => {
  it('names the lines its snippet covers, so the document opens at the match', async () => {
    // A long note: the match sits far down, in a passage of its own.
    const filler = Array.from(
      { length: 120 },
      (_, i) => `Line ${i + 1} of the ledger notes about nothing much at all.`,
    );
    filler[95] = 'The zephyrine quartermaster counted barrels of pickled herring.';
    const id = await capture({ text: filler.join('\n'), title: 'Ledger' });
    await waitSettled(id);
    const found = await get(`/v1/search?q=${encodeURIComponent('zephyrine quartermaster')}`);
    expect(found.status).toBe(200);
    const hit = found.body.results.find((r: { id: string }) => r.id === id);
    expect(hit).toBeDefined();
    expect(hit.line_start).toBeGreaterThanOrEqual(1);
    expect(hit.line_start).toBeLessThanOrEqual(96);
    expect(hit.line_end).toBeGreaterThanOrEqual(96);
    // The document read from line_start begins with the snippet's first line.
    const content = await get(`/v1/documents/${id}/content?from_line=${hit.line_start}&lines=1`);
    expect(hit.snippet.startsWith(String(content.body.lines[0]).trim().slice(0, 30))).toBe(true);
  });
});

describe('GET /v1/documents/{id}/file', () => {
  it("gives a text push's text exactly as sent, as text/plain; charset=utf-8, named after its title", async () => {
    const text = 'Première ligne\r\nzweite Zeile\n🙂 dritte\n';
    const id = await capture({ text, title: 'Réunion: plan/2026 "final"' });
    const file = await download(id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(file.bytes.toString('utf8')).toBe(text);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="R_union_ plan_2026 _final_.txt"; filename*=UTF-8''R%C3%A9union_%20plan_2026%20_final_.txt`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    expect(file.headers.get('x-request-id')).toMatch(/^req_/);
    // A title that is plain ASCII names it plainly; one that ends .txt gets no second one.
    const plain = await capture({ text: 'plain words', title: 'notes.txt' });
    expect((await download(plain)).headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
  });

  it('gives a PDF and an image byte for byte, with their type and filename (filename* for a name that is not ASCII)', async () => {
    const pdf = await makePdf([{ text: 'The Orrery contract, signed.' }]);
    const pdfId = await capture({
      content_base64: b64(pdf),
      filename: 'contrat signé.pdf',
      content_type: 'application/pdf',
    });
    // Before and after extraction alike: the bytes are stored before the receipt.
    const early = await download(pdfId);
    expect(early.status).toBe(200);
    expect(early.bytes.equals(pdf)).toBe(true);
    expect((await waitSettled(pdfId)).status).toBe('ready');
    const file = await download(pdfId);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(pdf)).toBe(true);
    expect(Number(file.headers.get('content-length'))).toBe(pdf.byteLength);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="contrat sign_.pdf"; filename*=UTF-8''contrat%20sign%C3%A9.pdf`,
    );
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");

    const png = await renderTextPng(['Platypus'], { fontPx: 40, width: 600 });
    // Declared wrongly: the bytes decided the stored type.
    const pngId = await capture({
      content_base64: b64(png),
      filename: 'photos/board.png',
      content_type: 'application/octet-stream',
    });
    expect((await waitSettled(pngId)).status).toBe('ready');
    const image = await download(pngId);
    expect(image.bytes.equals(png)).toBe(true);
    expect(image.headers.get('content-type')).toBe('image/png');
    // The path before the last slash is no part of the name.
    expect(image.headers.get('content-disposition')).toBe('attachment; filename="board.png"');
  }, 120_000);

  it('gives the largest file the service takes (4 MiB) byte for byte through the local gateway', async () => {
    const line = 'The quick brown fox jumps over the lazy dog, again and again.\n';
    const big = Buffer.from(line.repeat(Math.floor((4 * 1024 * 1024) / line.length)));
    const id = await capture({ content_base64: b64(big), filename: 'big.txt', content_type: 'text/plain' });
    const file = await download(id);
    expect(file.status).toBe(200);
    expect(file.bytes.byteLength).toBe(big.byteLength);
    expect(file.bytes.equals(big)).toBe(true);
  }, 60_000);

  it('is 404 for an unknown or deleted document', async () => {
    expect((await download('file_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    const id = await capture({ text: 'soon gone' });
    await server.api(`/v1/documents/${id}`, { key, method: 'DELETE' });
    expect((await download(id)).status).toBe(404);
    expect((await get(`/v1/documents/${id}/content`)).status).toBe(404);
  });
});

describe('only in the caller library', () => {
  it('is 404 across tenants and end users, both routes, and 200 in the library that holds it', async () => {
    const other = await server.newKey('someone-else');
    const shared = await capture({ text: 'Shared ledger line' });
    const alices = await capture({ text: 'Alice diary line', end_user_id: 'alice' });
    const bytes = await capture({
      content_base64: b64('k,v\nsecret,1\n'),
      filename: 'alice.csv',
      content_type: 'text/csv',
      end_user_id: 'alice',
    });
    for (const route of ['content', 'file']) {
      const status = async (id: string, query: string, k = key) =>
        (await get(`/v1/documents/${id}/${route}${query}`, k)).status;
      expect(await status(shared, '')).toBe(200);
      expect(await status(shared, '', other)).toBe(404);
      expect(await status(shared, '?end_user_id=alice')).toBe(404);
      for (const id of [alices, bytes]) {
        expect(await status(id, '?end_user_id=alice'), `${route} ${id}`).toBe(200);
        expect(await status(id, ''), `${route} ${id}`).toBe(404);
        expect(await status(id, '?end_user_id=bob'), `${route} ${id}`).toBe(404);
        expect(await status(id, '?end_user_id=alice', other), `${route} ${id}`).toBe(404);
      }
    }
    const notFound = await get(`/v1/documents/${alices}/file`);
    expect(notFound.body.error).toMatchObject({ code: 'not_found', message: `document ${alices} not found` });
    expect((await download(bytes, '?end_user_id=alice')).bytes.toString()).toBe('k,v\nsecret,1\n');
  });
});

describe('409 not_ready while the text is not extracted yet', () => {
  let paused: TestServer;
  let pausedKey: string;
  beforeAll(async () => {
    paused = await startTestServer({ embedder: new HashingEmbedder() });
    pausedKey = await paused.newKey('paused');
    // No queued work runs here: a queued file stays processing with its text unknown.
    paused.stack.drain.stop();
  });
  afterAll(() => paused.close());

  it('answers 409 for a queued file whose text is not extracted yet (its bytes are there already); a document still embedding reads', async () => {
    const pdf = await makePdf([{ text: 'Waiting for the reader' }]);
    // A batch item is always queued (a single capture of a file may be read in its request on an idle machine).
    const queued = await paused.api('/v1/capture/batch', {
      key: pausedKey,
      body: { items: [{ content_base64: b64(pdf), filename: 'queued.pdf', content_type: 'application/pdf' }] },
    });
    expect(queued.body.results[0].status).toBe('created');
    const id = queued.body.results[0].id as string;
    expect((await paused.api(`/v1/documents/${id}`, { key: pausedKey })).body).toMatchObject({
      status: 'processing',
      passages: null,
    });
    const content = await paused.api(`/v1/documents/${id}/content`, { key: pausedKey });
    expect(content.status).toBe(409);
    expect(content.body.error).toMatchObject({
      code: 'not_ready',
      message: expect.stringMatching(/^document file_\w+ is not ready: its text is still being extracted/),
    });
    expect(content.headers.get('x-request-id')).toBe(content.body.error.request_id);
    const file = await fetch(`${paused.url}/v1/documents/${id}/file`, {
      headers: { authorization: `Bearer ${pausedKey}` },
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);

    // A batch item's text is indexed at once and its embedding queued: processing, but its lines read.
    const batch = await paused.api('/v1/capture/batch', {
      key: pausedKey,
      body: { items: [{ text: 'first\nsecond' }] },
    });
    const embedding = batch.body.results[0].id as string;
    expect((await paused.api(`/v1/documents/${embedding}`, { key: pausedKey })).body).toMatchObject({
      status: 'processing',
      passages: 1,
    });
    expect((await paused.api(`/v1/documents/${embedding}/content`, { key: pausedKey })).body).toMatchObject({
      lines: ['first', 'second'],
    });
  });
});

describe('409 for a document that failed', () => {
  it('has no text to read: its content is 409 naming the failure; its bytes are still there', async () => {
    // A tenant of its own: the queue serves tenants in turn, so this job does not wait behind the big files above.
    const own = await server.newKey('failing-reader');
    const broken = (await makePdf([{ text: 'Half a document' }])).subarray(0, 200);
    // Queued (a batch item), so it is claimed first and fails when the worker reads it.
    const batch = await server.api('/v1/capture/batch', {
      key: own,
      body: { items: [{ content_base64: b64(broken), filename: 'broken.pdf', content_type: 'application/pdf' }] },
    });
    expect(batch.body.results[0].status).toBe('created');
    const id = batch.body.results[0].id as string;
    const settled = await waitSettled(id, own);
    expect(settled.status).toBe('failed');
    const content = await get(`/v1/documents/${id}/content`, own);
    expect(content.status).toBe(409);
    expect(content.body.error).toMatchObject({
      code: 'not_ready',
      message: expect.stringMatching(/failed and has no text to read \(extraction_failed: /),
    });
    const file = await download(id, '', own);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(broken)).toBe(true);
  }, 60_000);
});

describe("a file kept in the caller's bucket", () => {
  it('is read from the bucket; a refusal is 422 bucket_access_denied and marks it failing, no answer is 503; unregistered, it is 404 naming the object', async () => {
    const owner = await server.newKey('bucket-reader');
    const registered = await server.api('/v1/bucket', {
      key: owner,
      method: 'PUT',
      body: {
        provider: 's3',
        bucket: 'reader-bucket',
        endpoint: bucket.proxyEndpoint,
        access_key_id: 'AKIAREADER',
        secret_access_key: BUCKET_SECRET,
      },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const csv = 'city,river\nLyon,Rhône\nKöln,Rhein\n';
    const shared = await capture({ content_base64: b64(csv), filename: 'rivers.csv', content_type: 'text/csv' }, owner);
    const alices = await capture(
      {
        content_base64: b64('Alice keeps this file.\n'),
        filename: 'alice.txt',
        content_type: 'text/plain',
        end_user_id: 'alice',
      },
      owner,
    );
    expect(await bucket.list('reader-bucket')).toEqual(
      [`library/end-users/alice/${alices}`, `library/shared/${shared}`].sort(),
    );
    expect((await get(`/v1/documents/${shared}`, owner)).body.storage).toBe('bucket');

    const file = await download(shared, '', owner);
    expect(file.status).toBe(200);
    expect(file.bytes.toString('utf8')).toBe(csv);
    expect(file.headers.get('content-type')).toBe('text/csv');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="rivers.csv"');
    expect((await download(alices, '?end_user_id=alice', owner)).bytes.toString('utf8')).toBe(
      'Alice keeps this file.\n',
    );
    expect((await download(alices, '', owner)).status).toBe(404);
    // The lines come from the index, as grep reads them: the bucket is not asked.
    expect((await get(`/v1/documents/${shared}/content`, owner)).body.lines).toEqual([
      'city,river',
      'Lyon,Rhône',
      'Köln,Rhein',
    ]);

    bucket.proxy.mode = 'refuse-all';
    try {
      const refused = await server.api(`/v1/documents/${shared}/file`, { key: owner });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'bucket_access_denied',
        message: expect.stringMatching(/^the registered bucket refused reading the file \(AccessDenied/),
      });
      expect((await get('/v1/bucket', owner)).body).toMatchObject({
        state: 'failing',
        last_error: expect.stringMatching(/^read: refused \(AccessDenied/),
      });
      expect((await get(`/v1/documents/${shared}/content`, owner)).status).toBe(200);
      bucket.proxy.mode = 'drop';
      const unreachable = await server.api(`/v1/documents/${shared}/file`, { key: owner });
      expect(unreachable.status).toBe(503);
      expect(unreachable.body.error).toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/^the registered bucket could not be reached for the read/),
      });
      expect(unreachable.headers.get('retry-after')).toBe('1');
    } finally {
      bucket.proxy.mode = 'pass';
    }

    expect((await server.api('/v1/bucket', { key: owner, method: 'DELETE' })).status).toBe(200);
    const gone = await server.api(`/v1/documents/${shared}/file`, { key: owner });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain(`as object "library/shared/${shared}"`);
    // The object is still the customer's, where it was.
    expect((await bucket.read('reader-bucket', `library/shared/${shared}`)).toString('utf8')).toBe(csv);
    expect((await get(`/v1/documents/${shared}/content`, owner)).status).toBe(200);
  }, 60_000);
});
