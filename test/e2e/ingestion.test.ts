import { afterEach, describe, expect, it } from 'vitest';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { Embedder } from '../../lambdas/core/ports.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * The ingestion pipeline over HTTP: every allowed size is captured and found,
 * batches answer at once and become ready, and an embedder that fails never
 * takes the service down or leaves a document processing forever.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An embedder whose health and failures the test steers, as the local pool reports them. */
class SteeredEmbedder implements Embedder {
  readonly name = 'hashing-test-embedder';
  readonly dimensions = 64;
  failing = false;
  calls = 0;
  private readonly inner = new HashingEmbedder();
  async embed(texts: readonly string[]) {
    this.calls += 1;
    if (this.failing)
      throw new BackendUnavailableError('embedding worker restarting after: memory access out of bounds');
    return this.inner.embed(texts);
  }
  health() {
    return this.failing
      ? { state: 'degraded' as const, detail: 'embedding worker restarting after: memory access out of bounds' }
      : { state: 'ok' as const, detail: null };
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const readyDoc = (s: TestServer, key: string, id: string) =>
  waitFor(
    `${id} ready`,
    async () => {
      const doc = (await s.api(`/v1/documents/${id}`, { key })).body;
      return doc.status === 'processing' ? undefined : doc;
    },
    120_000,
  );

/** Paragraphs of varied words, each with a marker, to about `bytes` of UTF-8. */
function bigText(bytes: number, marker: string): string {
  const words = [
    'river',
    'lantern',
    'copper',
    'meadow',
    'harbor',
    'violet',
    'engine',
    'orchard',
    'signal',
    'granite',
    'willow',
    'ember',
  ];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes - 600; i++) {
    const line = `${marker}${i} ${Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')}\n`;
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  return parts.join('');
}

describe('ingestion over HTTP', () => {
  it('captures the largest allowed text at once: findable by words and grep from the receipt, by meaning once ready', async () => {
    // The hashing embedder: this is about the pipeline at every size, not the model's speed (bench:ingest measures that).
    server = await startTestServer({ embedder: new HashingEmbedder() });
    const key = await server.newKey('big');
    const text = bigText(2 * 1024 * 1024, 'zq');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2 * 1024 * 1024);
    const started = Date.now();
    const receipt = await server.api('/v1/capture', { key, body: { text } });
    expect(receipt.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(30_000); // within the request budget even on a loaded test machine; bench:ingest measures it idle
    const id = receipt.body.id;
    const grep = await server.api('/v1/grep?pattern=zq4000%20', { key });
    expect(grep.body.results.map((r: { file_id: string; line: number }) => [r.file_id, r.line])).toEqual([[id, 4001]]);
    const doc = (await server.api(`/v1/documents/${id}`, { key })).body;
    expect(doc).toMatchObject({ findable_by_words: true });
    expect(doc.passages).toBeGreaterThan(4000);
    const ready = await readyDoc(server, key, id);
    expect(ready).toMatchObject({
      status: 'ready',
      findable_by_meaning: true,
      passages_embedded: doc.passages,
      failure_reason: null,
    });
    const search = await server.api(`/v1/search?q=${encodeURIComponent('zq1234 lantern meadow')}&limit=5`, { key });
    expect(search.body.results[0].id).toBe(id);
  }, 180_000);

  it('captures the largest allowed file (4 MiB of text) and finds it by words, grep and meaning', async () => {
    server = await startTestServer({ embedder: new HashingEmbedder() });
    const key = await server.newKey('bigfile');
    const bytes = Buffer.from(bigText(4 * 1024 * 1024, 'fx'));
    const receipt = await server.api('/v1/capture', {
      key,
      body: { content_base64: bytes.toString('base64'), filename: 'big.md', content_type: 'text/markdown' },
    });
    expect(receipt.status).toBe(201);
    const ready = await readyDoc(server, key, receipt.body.id);
    expect(ready).toMatchObject({ status: 'ready', kind: 'file', size_bytes: bytes.byteLength });
    expect((await server.api('/v1/grep?pattern=fx7000%20', { key })).body.count).toBe(1);
    expect((await server.api(`/v1/search?q=fx7001&limit=3`, { key })).body.results[0].id).toBe(receipt.body.id);
  }, 180_000);

  it('answers a 20-item batch at once, each item processing then ready (findable by meaning)', async () => {
    server = await startTestServer({ embedder: new HashingEmbedder() });
    const key = await server.newKey('batch');
    const items = Array.from({ length: 20 }, (_, i) => ({
      text: bigText(2048, `note${i}x`),
      source_ref: `notes/${i}.md`,
    }));
    const started = Date.now();
    const batch = await server.api('/v1/capture/batch', { key, body: { items } });
    expect(batch.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(batch.body.succeeded).toBe(20);
    const ids: string[] = batch.body.results.map((r: { id: string }) => r.id);
    for (const id of ids)
      expect(await readyDoc(server, key, id)).toMatchObject({ status: 'ready', findable_by_meaning: true });
    const grep = await server.api('/v1/grep?pattern=note13x2%20', { key });
    expect(grep.body.results.map((r: { file_id: string }) => r.file_id)).toEqual([ids[13]]);
  }, 60_000);

  it('stays up while the embedder fails: health degraded, captures stored and retried, and ready once it recovers', async () => {
    const embedder = new SteeredEmbedder();
    server = await startTestServer({
      embedder,
      drain: { retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 1000 } },
    });
    const key = await server.newKey('flaky');
    embedder.failing = true;
    const health = await server.api('/v1/health', { key });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'degraded',
      embedder: { state: 'degraded', detail: expect.stringContaining('memory access') },
    });
    const batch = await server.api('/v1/capture/batch', {
      key,
      body: { items: [{ text: 'kept while the model is down' }, { text: 'and this one too' }] },
    });
    expect(batch.body.succeeded).toBe(2);
    // Words find it meanwhile; the single capture the request would embed is refused, retryable, with nothing kept.
    expect((await server.api('/v1/grep?pattern=model%20is%20down', { key })).body.count).toBe(1);
    const single = await server.api('/v1/capture', { key, body: { text: 'a lone note' } });
    expect(single.status).toBe(201); // queued: the drain is busy retrying, so it is not embedded in the request
    await new Promise((resolve) => setTimeout(resolve, 300));
    const callsWhileDown = embedder.calls;
    expect(callsWhileDown).toBeGreaterThan(2); // retried
    embedder.failing = false;
    for (const r of [...batch.body.results, single.body])
      expect((await readyDoc(server, key, r.id)).status).toBe('ready');
    expect((await server.api('/v1/health')).body.status).toBe('ok');
  }, 60_000);

  it('ends a document failed with a reason when the embedder never recovers, never processing forever', async () => {
    const embedder = new SteeredEmbedder();
    embedder.failing = true;
    server = await startTestServer({ embedder, drain: { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 } } });
    const key = await server.newKey('broken');
    const batch = await server.api('/v1/capture/batch', { key, body: { items: [{ text: 'never embedded' }] } });
    const doc = await readyDoc(server, key, batch.body.results[0].id);
    expect(doc.status).toBe('failed');
    expect(doc.failure_reason).toMatch(/^backend_unavailable: indexing gave up/);
    // Failed means not found: no half-indexed text is left.
    expect((await server.api('/v1/grep?pattern=never%20embedded', { key })).body.count).toBe(0);
    // Sent again once the embedder works, it is a new capture, not a duplicate.
    embedder.failing = false;
    const again = await server.api('/v1/capture', { key, body: { text: 'never embedded' } });
    expect(again.body.status).toBe('created');
  }, 30_000);

  it("keeps another tenant's captures and searches moving while one tenant's big upload is embedded", async () => {
    server = await startTestServer({ embedder: new SlowEmbedder(), drain: { lanes: 1 } });
    const big = await server.newKey('hog');
    const small = await server.newKey('neighbour');
    await server.api('/v1/capture', { key: big, body: { text: bigText(200_000, 'hog') } });
    const started = Date.now();
    const batch = await server.api('/v1/capture/batch', {
      key: small,
      body: { items: [{ text: 'neighbour note about parsley' }] },
    });
    const doc = await readyDoc(server, small, batch.body.results[0].id);
    expect(doc.status).toBe('ready');
    // One step (8 passages at 5 ms each) may run ahead of it, not the big upload's hundreds.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await server.api(`/v1/documents?limit=5`, { key: big })).body.documents[0].status).toBe('processing');
  }, 60_000);
});

/** A hashing embedder that takes 5 ms per text, so a big upload keeps the drain busy for seconds. */
class SlowEmbedder extends HashingEmbedder {
  override async embed(texts: readonly string[]) {
    await new Promise((resolve) => setTimeout(resolve, 5 * texts.length));
    return super.embed(texts);
  }
}

describe('health under failing dependencies', () => {
  it('answers 503 unavailable naming the database when it fails (to a valid key only), and ok again once it works', async () => {
    server = await startTestServer({ embedder: new HashingEmbedder() });
    const key = await server.newKey('operator');
    expect((await server.api('/v1/health')).body.status).toBe('ok');
    const original = server.stack.dependencies.database!;
    server.stack.dependencies.database = async () => {
      throw new Error('SQLITE_IOERR: disk I/O error');
    };
    // Only the probe is replaced: the database itself still answers the key check.
    const failing = await server.api('/v1/health', { key });
    expect(failing.status).toBe(503);
    expect(failing.headers.get('retry-after')).toBe('5');
    expect(failing.body).toMatchObject({
      status: 'unavailable',
      dependencies: { database: { state: 'failing', detail: 'SQLITE_IOERR: disk I/O error' }, blobs: { state: 'ok' } },
    });
    const anonymous = await server.api('/v1/health');
    expect(anonymous.status).toBe(503);
    expect(anonymous.headers.get('retry-after')).toBe('5');
    expect(anonymous.body).toEqual({
      status: 'unavailable',
      version: 'test',
      backend: 'local',
      embedder: { name: 'hashing-test-embedder', dimensions: 64 },
    });
    server.stack.dependencies.database = original;
    expect((await server.api('/v1/health')).status).toBe(200);
  });

  it('notices a closed database for real', async () => {
    server = await startTestServer({ embedder: new HashingEmbedder() });
    server.stack.drain.stop();
    server.stack.db.close();
    // With the database closed no key can be checked either: the anonymous answer, still 503.
    const health = await server.api('/v1/health', { key: `lib_${'A'.repeat(40)}` });
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      status: 'unavailable',
      version: 'test',
      backend: 'local',
      embedder: { name: 'hashing-test-embedder', dimensions: 64 },
    });
  });
});
