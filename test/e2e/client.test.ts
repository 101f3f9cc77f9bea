import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CaptureRejectedError,
  Library,
  LibraryAbortError,
  LibraryConnectionError,
  LibraryError,
  LibraryTimeoutError,
  normalizeBaseUrl,
} from '../../client/src/node.js';
import { NO_PRINCIPAL_ARN } from '../../lambdas/core/bucket/bucket-service.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/** The typed client (client/) against the real local server, and against stubs for retries and timeouts. */
let server: TestServer;
let lib: Library;
const folder = mkdtempSync(join(tmpdir(), 'library-client-'));

beforeAll(async () => {
  // The test server runs as a machine without AWS credentials (as CI is): the trust policy names no real principal.
  server = await startTestServer({ embedder: new HashingEmbedder() });
  lib = new Library({ baseUrl: server.url, apiKey: await server.newKey('client') });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A loopback server answering from a script of responses, recording what it was asked. */
async function stub(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let n = 0;
  const http: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res, n++));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => n,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_stub_${status}`, ...headers });
  res.end(JSON.stringify(body));
}
const errorBody = (code: string, retry_after?: number) => ({
  error: {
    code,
    message: `stub ${code}`,
    request_id: 'req_stub',
    ...(retry_after !== undefined ? { retry_after } : {}),
  },
});

describe('the typed client against the local server', () => {
  it('normalizes the base URL: the service root or the deployed .../v1 URL, with or without a trailing slash', async () => {
    expect(normalizeBaseUrl('https://x.execute-api.eu-west-1.amazonaws.com/prod/v1/')).toBe(
      'https://x.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(normalizeBaseUrl('https://api.example.com/v1')).toBe('https://api.example.com');
    expect(normalizeBaseUrl('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
    for (const base of [`${server.url}/v1/`, `${server.url}/v1`, `${server.url}/`]) {
      const health = await new Library({ baseUrl: base, apiKey: 'unused' }).health();
      expect(health).toMatchObject({ status: 'ok', version: 'test' });
      // A key no tenant holds: the anonymous answer, with no details.
      expect(health.embedder.state).toBeUndefined();
    }
    // The client sends its key: a valid one gets the details.
    expect(await lib.health()).toMatchObject({
      status: 'ok',
      embedder: { state: 'ok', detail: null },
      ingest: { backlog_documents: expect.any(Number) },
    });
  });

  it('captures text, files (bytes and paths) and batches; a rejected receipt is a value unless asked', async () => {
    const created = await lib.capture({
      text: 'The harbour opens at dawn.\nBoats leave at noon.',
      source_ref: 'notes/harbour',
    });
    expect(created).toMatchObject({ ok: true, status: 'created', source_ref: 'notes/harbour' });
    expect(created.id).toMatch(/^file_/);
    expect(await lib.capture('The harbour opens at dawn.\nBoats leave at noon.')).toMatchObject({
      status: 'deduped',
      id: created.id,
    });

    const rejected = await lib.capture({ text: '   ' });
    expect(rejected).toMatchObject({
      ok: false,
      status: 'rejected',
      reject_code: 'empty_content',
      retryable: false,
      id: null,
    });
    const thrown = await lib.capture({ text: '   ' }, { throwOnReject: true }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CaptureRejectedError);
    expect(thrown).toMatchObject({ status: 422, code: 'empty_content', receipt: { reject_code: 'empty_content' } });

    const bytes = await lib.captureFile(new TextEncoder().encode('k,v\nlighthouse,1\n'), {
      filename: 'table.csv',
      source_ref: 'table.csv',
    });
    expect(bytes.status).toBe('created');
    expect(await lib.documents.get(bytes.id!)).toMatchObject({ content_type: 'text/csv', filename: 'table.csv' });
    const path = join(folder, 'memo.md');
    writeFileSync(path, '# Memo\nThe lighthouse keeper retires in May.\n');
    const fromPath = await lib.captureFile(path);
    expect(fromPath.status).toBe('created');
    expect(await lib.documents.get(fromPath.id!)).toMatchObject({
      filename: 'memo.md',
      content_type: 'text/markdown',
      title: 'memo.md',
    });
    const blob = await lib.captureFile(new Blob([readFileSync(path)], { type: 'text/markdown' }), {
      filename: 'memo-copy.md',
    });
    expect(blob).toMatchObject({ status: 'deduped', id: fromPath.id });

    const batch = await lib.captureBatch([{ text: 'batch one' }, { text: '' }, { text: 'batch two' }], {
      end_user_id: 'client-user',
    });
    expect(batch.total).toBe(3);
    expect(batch.succeeded).toBe(2);
    expect(batch.results.map((r) => [r.index, r.status])).toEqual([
      [0, 'created'],
      [1, 'rejected'],
      [2, 'created'],
    ]);
  });

  it('replaces a document by source_ref', async () => {
    const v1 = await lib.capture({ text: 'version one of the plan', source_ref: 'plan.txt' });
    const v2 = await lib.capture({ text: 'version two of the plan', source_ref: 'plan.txt', replace_source_ref: true });
    expect(v2.status).toBe('created');
    const docs = await lib.documents.list({ source_ref: 'plan.txt' });
    expect(docs.items.map((d) => d.id)).toEqual([v2.id]);
    await expect(lib.documents.get(v1.id!)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('walks every page of search, grep, documents and end users', async () => {
    const items = Array.from({ length: 7 }, (_, i) => ({
      text: `pelican sighting number ${i}\nanother pelican line ${i}`,
    }));
    expect((await lib.captureBatch(items, { end_user_id: 'pager' })).succeeded).toBe(7);
    await server.stack.settled(); // every passage findable by meaning: the ranking holds still while the pages are walked

    const first = await lib.search({ q: 'pelican sighting', limit: 2, end_user_id: 'pager' });
    expect(first.items).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    expect(first.requestId).toMatch(/./);
    const seen: string[] = [];
    for await (const hit of first) seen.push(hit.id);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const all: string[] = [];
    for await (const hit of lib.searchAll({ q: 'pelican', limit: 3, end_user_id: 'pager', kind: 'file_excerpt' }))
      all.push(hit.id);
    expect(all.sort()).toEqual([...seen].sort());
    let pages = 0;
    for await (const page of first.pages()) pages += page.items.length ? 1 : 0;
    expect(pages).toBe(4);

    const lines: number[] = [];
    for await (const line of lib.grepAll({ pattern: 'PELICAN', limit: 4, end_user_id: 'pager' })) lines.push(line.line);
    expect(lines).toHaveLength(14);
    const none = await lib.grep({ pattern: 'PELICAN', case_sensitive: true, end_user_id: 'pager' });
    expect(none.items).toEqual([]);
    expect(await none.nextPage()).toBeNull();

    const docs: string[] = [];
    for await (const doc of lib.documents.iterate({ end_user_id: 'pager', limit: 3 })) docs.push(doc.id);
    expect(docs).toHaveLength(7);
    const page = await lib.documents.list({ end_user_id: 'pager', limit: 5 });
    expect(page.items).toHaveLength(5);
    expect((await page.nextPage())?.items).toHaveLength(2);

    const users: string[] = [];
    for await (const user of lib.endUsers.iterate({ limit: 1 })) users.push(user.id);
    expect(users).toEqual(expect.arrayContaining(['client-user', 'pager']));
  });

  it('deletes documents, chats, erases end users and reports usage', async () => {
    const receipt = await lib.capture({ text: 'The ferry to Skye leaves at 9 from pier 4.', end_user_id: 'chatter' });
    const chat = await lib.chat({ question: 'When does the ferry to Skye leave?', end_user_id: 'chatter' });
    expect(chat.reply).toMatch(/\S/);
    expect(chat.run_id).toMatch(/^run_/);
    expect(chat.sources.map((s) => s.file_id)).toContain(receipt.id);

    expect(await lib.documents.delete(receipt.id!, { end_user_id: 'chatter' })).toEqual({
      id: receipt.id,
      deleted: true,
      blobs_deleted: 0,
      blobs_pending: 0,
    });
    const gone = await lib.documents.get(receipt.id!, { end_user_id: 'chatter' }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(LibraryError);
    expect(gone).toMatchObject({ status: 404, code: 'not_found', requestId: expect.stringMatching(/./) });

    const erased = await lib.endUsers.erase('chatter');
    expect(erased).toMatchObject({ id: 'chatter', deleted: true });
    await expect(lib.endUsers.erase('chatter')).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const usage = await lib.usage();
    expect(usage.captures).toBeGreaterThan(0);
    expect(usage.chat_calls).toBeGreaterThanOrEqual(1);
    expect(Array.isArray(usage.days)).toBe(true);
  });

  it('reaches the bucket routes: nothing registered, no principal here, a registration breaking a rule', async () => {
    const none = await lib.bucket.get().catch((e: unknown) => e);
    expect(none).toMatchObject({ status: 404, code: 'not_found' });
    const trust = await lib.bucket.trustPolicy();
    expect(trust.service_principal_arn).toBe(NO_PRINCIPAL_ARN);
    expect(trust.trust_policy.Statement[0]).toMatchObject({
      Principal: { AWS: NO_PRINCIPAL_ARN },
      Condition: { StringEquals: { 'sts:ExternalId': trust.external_id } },
    });
    const refused = await lib.bucket
      .register({ provider: 'r2', bucket: 'acme-library', access_key_id: 'AKIA', secret_access_key: 'x' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LibraryError);
    expect(refused).toMatchObject({
      status: 422,
      code: 'invalid_request',
      message: expect.stringMatching(/^endpoint: /),
    });
    expect(await lib.bucket.unregister().catch((e: unknown) => e)).toMatchObject({ status: 404 });
  });

  it('raises typed errors with status, code, message and request id', async () => {
    const bad = new Library({ baseUrl: server.url, apiKey: 'lib_wrong' });
    const error = (await bad.search({ q: 'x' }).catch((e: unknown) => e)) as LibraryError;
    expect(error).toBeInstanceOf(LibraryError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', requestId: expect.stringMatching(/./) });
    const invalid = (await lib.search({ q: 'x', limit: 500 }).catch((e: unknown) => e)) as LibraryError;
    expect(invalid).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(invalid.message).toMatch(/limit/);
    const cursor = (await lib.documents.list({ cursor: 'not-a-cursor' }).catch((e: unknown) => e)) as LibraryError;
    expect(cursor).toMatchObject({ status: 422, code: 'invalid_request' });
  });

  it("waits out the real server's rate limit", async () => {
    const limited = await startTestServer({
      embedder: new HashingEmbedder(),
      rateLimit: { ratePerSecond: 5, burst: 2 },
    });
    try {
      const retries: number[] = [];
      const client = new Library({
        baseUrl: limited.url,
        apiKey: await limited.newKey('slow'),
        onRetry: (r) => retries.push(r.delayMs),
      });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => client.capture(`rate limited capture ${i}`)),
      );
      expect(results.every((r) => r.status === 'created')).toBe(true);
      expect(retries.length).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('retries, timeouts and cancellation', () => {
  it('retries a 429 after its Retry-After, and a 503 with backoff', async () => {
    const s = await stub((_req, res, n) => {
      if (n === 0) return json(res, 429, errorBody('rate_limited', 1), { 'retry-after': '1' });
      if (n === 1 || n === 2) return json(res, 503, errorBody('unavailable', 0), { 'retry-after': '0' });
      json(res, 200, {
        tenant_id: 't',
        from: '2026-01-01',
        to: '2026-01-31',
        tokens_used: 0,
        chat_calls: 0,
        ocr_pages: 0,
        captures: 0,
        days: [],
      });
    });
    try {
      const waits: Array<{ reason: string; delayMs: number }> = [];
      const client = new Library({
        baseUrl: `${s.url}/prod/v1/`,
        apiKey: 'k',
        retryBaseMs: 10,
        onRetry: (r) => waits.push(r),
      });
      const started = Date.now();
      const usage = await client.usage();
      expect(usage.tenant_id).toBe('t');
      expect(s.calls()).toBe(4);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(waits.map((w) => w.reason)).toEqual(['429 rate_limited', '503 unavailable', '503 unavailable']);
      expect(waits[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    } finally {
      await s.close();
    }
  });

  it('gives up after its retries with the last error, and returns a retryable rejected receipt as a value once retries are spent', async () => {
    const receipt = {
      ok: false,
      status: 'rejected',
      dedup: false,
      detail: 'embedder down',
      id: null,
      file_id: null,
      reject_code: 'backend_unavailable',
      retryable: true,
      source_ref: null,
    };
    const s = await stub((req, res) => {
      if (req.url?.startsWith('/v1/capture')) return json(res, 503, receipt, { 'retry-after': '0' });
      json(res, 429, errorBody('rate_limited', 0), { 'retry-after': '0' });
    });
    try {
      const client = new Library({ baseUrl: s.url, apiKey: 'k', retries: 2, retryBaseMs: 5 });
      const error = (await client.search({ q: 'x' }).catch((e: unknown) => e)) as LibraryError;
      expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 0, requestId: 'req_stub_429' });
      expect(s.calls()).toBe(3);
      expect(await client.capture('x')).toMatchObject({
        status: 'rejected',
        reject_code: 'backend_unavailable',
        retryable: true,
      });
      expect(s.calls()).toBe(6);
      await expect(client.capture('x', { throwOnReject: true })).rejects.toBeInstanceOf(CaptureRejectedError);
    } finally {
      await s.close();
    }
  });

  it('times out a request that never answers, and cancels on an AbortSignal', async () => {
    const s = await stub(() => undefined); // never answers
    try {
      const client = new Library({ baseUrl: s.url, apiKey: 'k', timeoutMs: 200, retries: 0 });
      const started = Date.now();
      const timeout = await client.documents.list().catch((e: unknown) => e);
      expect(timeout).toBeInstanceOf(LibraryTimeoutError);
      expect(timeout).toMatchObject({ code: 'timeout', status: 0 });
      expect(Date.now() - started).toBeLessThan(2000);

      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const aborted = await new Library({ baseUrl: s.url, apiKey: 'k' })
        .chat('hello?', { signal: controller.signal })
        .catch((e: unknown) => e);
      expect(aborted).toBeInstanceOf(LibraryAbortError);
      expect(aborted).toMatchObject({ code: 'aborted' });
    } finally {
      await s.close();
    }
  });

  it('names the URL and the cause when it cannot connect', async () => {
    const s = await stub(() => undefined);
    const url = s.url;
    await s.close();
    const client = new Library({ baseUrl: url, apiKey: 'k', retries: 1, retryBaseMs: 5 });
    const error = (await client.documents.list().catch((e: unknown) => e)) as LibraryError;
    expect(error).toBeInstanceOf(LibraryConnectionError);
    expect(error.message).toContain(`${url}/v1/documents`);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});

describe('chat conversations and streamed replies', () => {
  const collect = async <T>(events: AsyncIterable<T>): Promise<T[]> => {
    const all: T[] = [];
    for await (const event of events) all.push(event);
    return all;
  };

  it('follows up in a conversation with conversationId; another library cannot, with a typed 404', async () => {
    await lib.capture({
      text: 'Parked the car on level 3 of the Harbour Street garage on Tuesday 14 May.',
      end_user_id: 'driver',
    });
    const first = await lib.chat('Where did I park the car?', { end_user_id: 'driver' });
    expect(first.conversation_id).toMatch(/^cnv_[0-9A-HJKMNP-TV-Z]{26}$/);
    const followUp = await lib.chat('And when was that?', {
      end_user_id: 'driver',
      conversationId: first.conversation_id,
    });
    expect(followUp.conversation_id).toBe(first.conversation_id);
    expect(followUp.reply).toContain('14 May');
    // The object form takes it too.
    expect(
      (await lib.chat({ question: 'And which level?', end_user_id: 'driver', conversation_id: first.conversation_id }))
        .conversation_id,
    ).toBe(first.conversation_id);
    const elsewhere = await lib
      .chat('And when was that?', { conversationId: first.conversation_id })
      .catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(LibraryError);
    expect(elsewhere).toMatchObject({ status: 404, code: 'not_found', requestId: expect.stringMatching(/^req_/) });
  });

  it('streams start, the reply as deltas and done; the deltas add up to the reply, and the conversation goes on', async () => {
    await lib.capture({ text: 'The wifi password at the cabin is spruce-lantern-42.', end_user_id: 'guest' });
    const events = await collect(lib.chatStream('What is the wifi password at the cabin?', { end_user_id: 'guest' }));
    expect(events[0]).toMatchObject({
      type: 'start',
      run_id: expect.stringMatching(/^run_/),
      conversation_id: expect.stringMatching(/^cnv_/),
    });
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error('the last event is not done');
    expect(done.response).toMatchObject({
      run_id: events[0]!.type === 'start' ? events[0]!.run_id : '',
      reply: expect.stringContaining('spruce-lantern-42'),
    });
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe(done.response.reply);
    const next = await collect(
      lib.chatStream('And who set that?', { end_user_id: 'guest', conversationId: done.response.conversation_id }),
    );
    expect(next.at(-1)).toMatchObject({ type: 'done', response: { conversation_id: done.response.conversation_id } });
  });

  it('throws the typed error when the stream cannot start (an unknown conversation is 404)', async () => {
    const stream = lib.chatStream('hi', { conversationId: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3' });
    const error = await collect(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LibraryError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });

  /** A stub answering a chat as server-sent events, written in the pieces given (with pauses). */
  const sse = (pieces: Array<string | number>, status = 200) =>
    stub(async (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'req_sse' });
      for (const piece of pieces) {
        if (typeof piece === 'number') await new Promise((r) => setTimeout(r, piece));
        else res.write(piece);
      }
      res.end();
    });
  const DONE = {
    reply: 'Level 3 [1].',
    artifacts: [],
    sources: [],
    tokens_used: 3,
    run_id: 'run_1',
    conversation_id: 'cnv_1',
  };

  it('reads events however the bytes are cut: CRLF or CR line ends, comments, split lines, several data lines; asks for text/event-stream', async () => {
    let accept: string | undefined;
    const s = await stub(async (req, res) => {
      accept = req.headers.accept;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const body = `: hello\r\nevent: start\r\ndata: {"run_id":"run_1",\r\ndata: "conversation_id":"cnv_1"}\r\n\r\nevent: delta\rdata: {"text":"Level"}\r\revent: delta\ndata: {"text":" 3 [1]."}\n\n: keep-alive\n\nevent: done\ndata: ${JSON.stringify(DONE)}\n\n`;
      for (let i = 0; i < body.length; i += 7) {
        res.write(body.slice(i, i + 7));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    try {
      const events = await collect(new Library({ baseUrl: s.url, apiKey: 'k' }).chatStream('Where?'));
      expect(accept).toBe('text/event-stream');
      expect(events).toEqual([
        { type: 'start', run_id: 'run_1', conversation_id: 'cnv_1' },
        { type: 'delta', text: 'Level' },
        { type: 'delta', text: ' 3 [1].' },
        { type: 'done', response: DONE },
      ]);
    } finally {
      await s.close();
    }
  });

  it("throws the service's error event as the LibraryError the same failure would be, after the events before it", async () => {
    const error = {
      error: {
        code: 'unavailable',
        message: 'a backend is unavailable; safe to retry',
        request_id: 'req_sse',
        retry_after: 4,
      },
    };
    const s = await sse([
      `event: start\ndata: {"run_id":"run_1","conversation_id":"cnv_1"}\n\n`,
      `event: delta\ndata: {"text":"Lev"}\n\n`,
      `event: error\ndata: ${JSON.stringify(error)}\n\n`,
    ]);
    try {
      const seen: string[] = [];
      const thrown = await (async () => {
        for await (const event of new Library({ baseUrl: s.url, apiKey: 'k' }).chatStream('Where?'))
          seen.push(event.type);
      })().catch((e: unknown) => e);
      expect(seen).toEqual(['start', 'delta']);
      expect(thrown).toBeInstanceOf(LibraryError);
      expect(thrown).toMatchObject({
        status: 503,
        code: 'unavailable',
        retryAfter: 4,
        requestId: 'req_sse',
        message: 'a backend is unavailable; safe to retry',
      });
    } finally {
      await s.close();
    }
  });

  it('says so when the stream ends before its final event, when it goes quiet too long, and when it is cancelled', async () => {
    const cut = await sse([
      `event: start\ndata: {"run_id":"run_1","conversation_id":"cnv_1"}\n\n`,
      `event: delta\ndata: {"text":"Lev"}\n\n`,
    ]);
    const quiet = await sse([`event: start\ndata: {"run_id":"run_1","conversation_id":"cnv_1"}\n\n`, 5_000]);
    try {
      const ended = await collect(new Library({ baseUrl: cut.url, apiKey: 'k' }).chatStream('Where?')).catch(
        (e: unknown) => e,
      );
      expect(ended).toBeInstanceOf(LibraryConnectionError);
      expect((ended as Error).message).toMatch(/ended before its final event/);

      const started = Date.now();
      const idle = await collect(
        new Library({ baseUrl: quiet.url, apiKey: 'k', timeoutMs: 200 }).chatStream('Where?'),
      ).catch((e: unknown) => e);
      expect(idle).toBeInstanceOf(LibraryTimeoutError);
      expect(Date.now() - started).toBeLessThan(2000);

      const controller = new AbortController();
      const seen: string[] = [];
      const aborted = await (async () => {
        for await (const event of new Library({ baseUrl: quiet.url, apiKey: 'k' }).chatStream('Where?', {
          signal: controller.signal,
        })) {
          seen.push(event.type);
          setTimeout(() => controller.abort(), 50);
        }
      })().catch((e: unknown) => e);
      expect(seen).toEqual(['start']);
      expect(aborted).toBeInstanceOf(LibraryAbortError);
    } finally {
      await cut.close();
      await quiet.close();
    }
  });

  it('retries a 429 before the stream starts, and turns a JSON answer (a service that does not stream) into the same events', async () => {
    const s = await stub((_req, res, n) => {
      if (n === 0) return json(res, 429, errorBody('rate_limited', 0), { 'retry-after': '0' });
      json(res, 200, DONE);
    });
    try {
      const events = await collect(new Library({ baseUrl: s.url, apiKey: 'k', retryBaseMs: 5 }).chatStream('Where?'));
      expect(s.calls()).toBe(2);
      expect(events).toEqual([
        { type: 'start', run_id: 'run_1', conversation_id: 'cnv_1' },
        { type: 'delta', text: 'Level 3 [1].' },
        { type: 'done', response: DONE },
      ]);
    } finally {
      await s.close();
    }
  });
});

describe('metadata, filters and editing a document', () => {
  const user = 'curator';
  const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  };
  let apollo: string;
  let gemini: string;
  let memo: string;

  beforeAll(async () => {
    const one = await lib.capture({
      text: 'Launch window review: the heron rocket flies in March.',
      source_ref: 'missions/apollo.txt',
      end_user_id: user,
      metadata: { project: 'apollo', year: 2024, tags: ['launch', 'review'], draft: false },
    });
    const batch = await lib.captureBatch(
      [
        {
          text: 'Launch window review: the heron capsule waits for May.',
          source_ref: 'missions/gemini.txt',
          metadata: { project: 'gemini', year: 2022, tags: ['launch'] },
        },
        { text: 'Heron sightings at the lake, no launch involved.', source_ref: 'diary/lake.txt' },
      ],
      { end_user_id: user },
    );
    const file = await lib.captureFile(new TextEncoder().encode('# Memo\nThe heron budget is approved.\n'), {
      filename: 'memo.md',
      source_ref: 'missions/memo.md',
      end_user_id: user,
      metadata: { project: 'apollo', year: 2025 },
    });
    expect([one.status, ...batch.results.map((r) => r.status), file.status]).toEqual([
      'created',
      'created',
      'created',
      'created',
    ]);
    [apollo, gemini, memo] = [one.id!, batch.results[0]!.id!, file.id!];
    await server.stack.settled();
  });

  it('returns the metadata a capture carried, {} when none, on documents, search, grep and chat sources', async () => {
    expect((await lib.documents.get(apollo, { end_user_id: user })).metadata).toEqual({
      project: 'apollo',
      year: 2024,
      tags: ['launch', 'review'],
      draft: false,
    });
    expect((await lib.documents.get(memo, { end_user_id: user })).metadata).toEqual({ project: 'apollo', year: 2025 });
    const lake = (await lib.documents.list({ end_user_id: user, source_ref: 'diary/lake.txt' })).items;
    expect(lake.map((d) => d.metadata)).toEqual([{}]);
    const hits = await collect(lib.searchAll({ q: 'heron launch window', end_user_id: user }));
    expect(hits.find((h) => h.id === gemini)?.metadata).toEqual({ project: 'gemini', year: 2022, tags: ['launch'] });
    const lines = await collect(lib.grepAll({ pattern: 'heron', end_user_id: user }));
    expect(lines.find((l) => l.file_id === apollo)?.metadata).toMatchObject({ project: 'apollo' });
  });

  it('filters search, grep, the document list and chat with a typed filter', async () => {
    const searched = await collect(
      lib.searchAll({ q: 'heron launch', end_user_id: user, filter: { 'metadata.project': 'apollo' } }),
    );
    expect(new Set(searched.map((h) => h.id))).toEqual(new Set([apollo, memo]));
    const recent = await collect(
      lib.searchAll({
        q: 'heron',
        end_user_id: user,
        filter: { 'metadata.year': { gte: 2023 }, 'metadata.tags': 'launch' },
      }),
    );
    expect(recent.map((h) => h.id)).toEqual([apollo]);

    const grepped = await collect(
      lib.grepAll({
        pattern: 'heron',
        end_user_id: user,
        filter: { or: [{ 'metadata.project': 'gemini' }, { 'metadata.project': { exists: false } }] },
      }),
    );
    expect(new Set(grepped.map((l) => l.source_ref))).toEqual(new Set(['missions/gemini.txt', 'diary/lake.txt']));

    const listed = await collect(
      lib.documents.iterate({
        end_user_id: user,
        limit: 1,
        filter: { source_ref: { prefix: 'missions/' }, not: { 'metadata.project': 'gemini' } },
      }),
    );
    expect(listed.map((d) => d.id).sort()).toEqual([apollo, memo].sort());

    const chat = await lib.chat('When does the heron fly?', {
      end_user_id: user,
      filter: { 'metadata.project': 'gemini' },
    });
    expect(chat.sources.map((s) => s.file_id)).toEqual([gemini]);
    for (const source of chat.sources) expect(source.metadata).toMatchObject({ project: 'gemini' });
    const streamed = (
      await collect(
        lib.chatStream({
          question: 'When does the heron fly?',
          end_user_id: user,
          filter: { 'metadata.project': 'apollo' },
        }),
      )
    ).at(-1);
    if (streamed?.type !== 'done') throw new Error('the stream did not end with done');
    expect(streamed.response.sources.length).toBeGreaterThan(0);
    expect(streamed.response.sources.map((s) => s.file_id)).not.toContain(gemini);

    // The service checks the filter again and names the path of a problem.
    const bad = await lib
      .search({ q: 'heron', end_user_id: user, filter: { 'metadata.year': { gte: true as unknown as number } } })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(LibraryError);
    expect(bad).toMatchObject({
      status: 422,
      code: 'invalid_request',
      message: expect.stringContaining('filter.metadata.year.gte'),
    });
  });

  it('updates a document (title, source_ref, metadata as a merge patch); filters see it at once; nothing is captured again', async () => {
    const before = await lib.documents.get(apollo, { end_user_id: user });
    const updated = await lib.documents.update(
      apollo,
      { title: 'Apollo review', metadata: { year: 2026, draft: null, status: 'approved' } },
      { end_user_id: user },
    );
    expect(updated).toMatchObject({
      id: apollo,
      title: 'Apollo review',
      sha256: before.sha256,
      metadata: { project: 'apollo', year: 2026, tags: ['launch', 'review'], status: 'approved' },
    });
    expect(updated.metadata).not.toHaveProperty('draft');
    expect(await lib.documents.get(apollo, { end_user_id: user })).toEqual(updated);

    const approved = await collect(
      lib.documents.iterate({ end_user_id: user, filter: { 'metadata.status': 'approved' } }),
    );
    expect(approved.map((d) => d.id)).toEqual([apollo]);
    const found = await collect(
      lib.searchAll({ q: 'heron launch', end_user_id: user, filter: { 'metadata.year': 2026 } }),
    );
    expect(found.map((h) => h.id)).toEqual([apollo]);
    expect(found[0]!.title).toBe('Apollo review');

    const moved = await lib.documents.update(apollo, { source_ref: null }, { end_user_id: user });
    expect(moved.source_ref).toBeNull();
    const rejected = await lib.documents
      .update(apollo, { metadata: { 'bad key': 1 } }, { end_user_id: user })
      .catch((e: unknown) => e);
    expect(rejected).toMatchObject({
      status: 422,
      code: 'invalid_request',
      message: expect.stringContaining('bad key'),
    });
    const elsewhere = await lib.documents.update(apollo, { title: 'x' }).catch((e: unknown) => e);
    expect(elsewhere).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('reading a document back', () => {
  it('reads a page of lines at the numbers grep reports, and iterates every line across pages', async () => {
    const text = 'Packing list\r\nthe Tern kayak\nspare paddle\rthe Tern tent\nmatches\n';
    const created = await lib.capture({ text, source_ref: 'lists/packing' });
    const id = created.id!;
    const hits = [];
    for await (const hit of lib.grepAll({ pattern: 'Tern', file_id: id })) hits.push(hit);
    expect(hits.map((h) => h.line)).toEqual([2, 4]);
    for (const hit of hits) {
      const page = await lib.documents.content(id, { fromLine: hit.line, lines: 1 });
      expect(`${hit.line}: ${page.lines[0]}`).toBe(hit.snippet);
    }
    const first = await lib.documents.content(id, { lines: 2 });
    expect(first).toEqual({
      id,
      line_count: 5,
      from_line: 1,
      lines: ['Packing list', 'the Tern kayak'],
      next_from_line: 3,
    });
    const all = [];
    for await (const line of lib.documents.iterateLines(id, { lines: 2 })) all.push(line);
    expect(all).toEqual(
      ['Packing list', 'the Tern kayak', 'spare paddle', 'the Tern tent', 'matches'].map((t, i) => ({
        line: i + 1,
        text: t,
      })),
    );
    const fromThree = [];
    for await (const line of lib.documents.iterateLines(id, { fromLine: 3, lines: 10 })) fromThree.push(line.line);
    expect(fromThree).toEqual([3, 4, 5]);
    const refused = await lib.documents.content(id, { lines: 0 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, code: 'invalid_request', message: expect.stringMatching(/^lines: /) });
  });

  it("downloads a document's file: the bytes, their type and the name (filename* decoded)", async () => {
    const text = 'Ünïcode notes\nline two\n';
    const pushed = await lib.capture({ text, title: 'Ünïcode notes' });
    const asText = await lib.documents.file(pushed.id!);
    expect(new TextDecoder().decode(asText.bytes)).toBe(text);
    expect(asText).toMatchObject({
      contentType: 'text/plain; charset=utf-8',
      filename: 'Ünïcode notes.txt',
      requestId: expect.stringMatching(/^req_/),
    });
    const csv = await lib.captureFile(new TextEncoder().encode('a,b\nçà,1\n'), {
      filename: 'tableau été.csv',
      end_user_id: 'reader-eve',
    });
    const file = await lib.documents.file(csv.id!, { end_user_id: 'reader-eve' });
    expect(new TextDecoder().decode(file.bytes)).toBe('a,b\nçà,1\n');
    expect(file).toMatchObject({ contentType: 'text/csv', filename: 'tableau été.csv' });
    const elsewhere = await lib.documents.file(csv.id!).catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(LibraryError);
    expect(elsewhere).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('fileOrLink: the bytes where the service answers them (local), the link where it makes one (as AWS does)', async () => {
    const csv = await lib.captureFile(new TextEncoder().encode('x,y\n1,2\n'), { filename: 'points.csv' });
    const local = await lib.documents.fileOrLink(csv.id!);
    expect('file' in local && new TextDecoder().decode(local.file.bytes)).toBe('x,y\n1,2\n');
    let accepted: string | undefined;
    const api = await stub((req, res) => {
      accepted = req.headers.accept;
      res.writeHead(200, { 'content-type': 'application/vnd.library.file-link+json', 'x-request-id': 'req_link' });
      res.end(
        JSON.stringify({
          url: 'https://blobs.example/file_1?X-Amz-Signature=abc',
          expires_in_seconds: 300,
          filename: 'résumé.pdf',
          content_type: 'application/pdf',
        }),
      );
    });
    try {
      const client = new Library({ baseUrl: api.url, apiKey: 'lib_secret_key', retryBaseMs: 5 });
      expect(await client.documents.fileOrLink('file_1')).toEqual({
        link: {
          url: 'https://blobs.example/file_1?X-Amz-Signature=abc',
          expiresInSeconds: 300,
          filename: 'résumé.pdf',
          contentType: 'application/pdf',
        },
      });
      expect(accepted).toContain('application/vnd.library.file-link+json');
    } finally {
      await api.close();
    }
  });

  it('follows a redirect to a presigned URL (as AWS answers) without sending the key there; not_ready is a typed 409, not retried', async () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x0a, 0xff, 0x00, 0x80, 0x7f]);
    let storageSawKey: string | undefined = 'not called';
    const storage = await stub((req, res) => {
      storageSawKey = req.headers.authorization;
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
      });
      res.end(Buffer.from(bytes));
    });
    const api = await stub((req, res) => {
      if (new URL(req.url!, 'http://stub').pathname.endsWith('/file')) {
        res.writeHead(302, {
          location: `${storage.url}/blobs/file_1?X-Amz-Signature=abc`,
          'x-request-id': 'req_redirect',
        });
        return res.end();
      }
      json(res, 409, errorBody('not_ready'));
    });
    try {
      const client = new Library({ baseUrl: api.url, apiKey: 'lib_secret_key', retryBaseMs: 5 });
      const file = await client.documents.file('file_1');
      expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
      expect(file).toMatchObject({ contentType: 'application/pdf', filename: 'résumé.pdf' });
      expect(storageSawKey).toBeUndefined();
      const calls = api.calls();
      const notReady = await client.documents.content('file_1').catch((e: unknown) => e);
      expect(notReady).toBeInstanceOf(LibraryError);
      expect(notReady).toMatchObject({ status: 409, code: 'not_ready' });
      expect(api.calls()).toBe(calls + 1);
    } finally {
      await api.close();
      await storage.close();
    }
  });
});
