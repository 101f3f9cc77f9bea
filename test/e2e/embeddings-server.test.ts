import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalConfig } from '../../bin/config.js';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { CALIBRATION_PAIRS } from '../../lambdas/core/chat/calibration-pairs.js';
import { openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { type EmbeddingsServer, startEmbeddingsServer } from '../support/embeddings-server.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/** A user with an embeddings server (Ollama, TEI, ...) sets two variables. */
function configFromEnv(server: EmbeddingsServer) {
  const saved = { url: process.env.LIBRARY_EMBED_URL, model: process.env.LIBRARY_EMBED_MODEL };
  process.env.LIBRARY_EMBED_URL = server.url;
  process.env.LIBRARY_EMBED_MODEL = server.model;
  try {
    return readLocalConfig().embed!;
  } finally {
    for (const [name, value] of [
      ['LIBRARY_EMBED_URL', saved.url],
      ['LIBRARY_EMBED_MODEL', saved.model],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const NOTES = [
  'We decided to move the team offsite to the lake house in May.',
  'Caroline said the pottery class on Thursday was the best part of her week.',
  'The plumber comes on Monday at 9 to fix the kitchen tap.',
  'Apples cost 2 euros a kilo, pears 3 and plums 4 at the Saturday market.',
  'Melanie ran her first half marathon in 1 hour 58 minutes.',
  'The car insurance renews on the 3rd of March; call the broker first.',
];

describe('an OpenAI-compatible embeddings server, set by LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL', () => {
  let embeddings: EmbeddingsServer;
  let server: TestServer;

  beforeAll(async () => {
    embeddings = await startEmbeddingsServer();
    server = await startTestServer({ embed: { ...configFromEnv(embeddings), healthTtlMs: 0 } });
  });
  afterAll(async () => {
    await server?.close();
    await embeddings?.close();
  });

  it('names the embedder in health, embeds captures and queries through it, and charges the tokens it reports', async () => {
    const key = await server.newKey('embed-tenant');
    const health = await server.api('/v1/health', { key });
    expect(health.body).toMatchObject({
      status: 'ok',
      embedder: { name: 'openai-compatible:test-embed', dimensions: 48, state: 'ok' },
    });

    const created = await server.api('/v1/capture', { key, body: { text: NOTES[3] } });
    expect(created.status).toBe(201);
    expect((await server.api(`/v1/documents/${created.body.id}`, { key })).body).toMatchObject({
      status: 'ready',
      findable_by_meaning: true,
    });
    expect(embeddings.embedded).toContain(NOTES[3]);

    const q = 'fruit prices at the market';
    const found = await server.api(`/v1/search?q=${encodeURIComponent(q)}&limit=5`, { key });
    expect(found.status).toBe(200);
    expect(found.body.results[0].id).toBe(created.body.id);
    expect(embeddings.requests.some((r) => r.body.input?.[0] === q)).toBe(true);
    // The meaning leg found it with the server's vector of the query.
    const { vectorHits } = await server.stack.services.search.legs(
      { tenantId: (await server.api('/v1/usage', { key })).body.tenant_id, endUserId: null },
      q,
    );
    expect(vectorHits[0]!.itemId).toBe(created.body.id);

    // Spend: exactly the prompt_tokens the server reported for the note's passage and the search's query (the
    // in-process legs above are no request: nothing charged).
    const usage = await server.api('/v1/usage', { key });
    expect(usage.body.tokens_used).toBe(embeddings.tokensOf(NOTES[3]!) + embeddings.tokensOf(q));
  });

  it('a failing embeddings server: capture answers 503 backend_unavailable (retryable), keeps nothing, health is degraded; a retry after recovery is created', async () => {
    const key = await server.newKey('embed-failing');
    for (const mode of ['error500', 'throttle'] as const) {
      embeddings.mode = mode;
      const refused = await server.api('/v1/capture', { key, body: { text: NOTES[4], source_ref: 'run-1' } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect(refused.body).toMatchObject({
        ok: false,
        status: 'rejected',
        reject_code: 'backend_unavailable',
        retryable: true,
        id: null,
      });
      expect((await server.api('/v1/documents', { key })).body.documents).toEqual([]);
      expect((await server.api('/v1/grep?pattern=marathon', { key })).body.results).toEqual([]);
    }
    const health = await server.api('/v1/health', { key });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'degraded',
      embedder: { name: 'openai-compatible:test-embed', state: 'degraded' },
    });
    expect(health.body.embedder.detail).toMatch(/the embedding server answered HTTP 429/);
    // Without a key: up or degraded, and what runs; never the upstream error or where the embedder is.
    const anonymous = await server.api('/v1/health');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({
      status: 'degraded',
      version: 'test',
      backend: 'local',
      embedder: { name: 'openai-compatible:test-embed', dimensions: 48 },
    });
    expect(JSON.stringify(anonymous.body)).not.toMatch(/HTTP 429|127\.0\.0\.1|localhost|embedding server/);
    expect(JSON.stringify(anonymous.body)).not.toContain(new URL(embeddings.url).host);

    embeddings.mode = 'ok';
    const retried = await server.api('/v1/capture', { key, body: { text: NOTES[4], source_ref: 'run-1' } });
    expect(retried.status).toBe(201);
    expect(retried.body.status).toBe('created');
    expect((await server.api('/v1/documents', { key })).body.documents).toHaveLength(1);
    expect((await server.api('/v1/health')).body.status).toBe('ok');
  });
});

describe('switching a data folder to another embedder (npx library ...)', () => {
  const root = join(import.meta.dirname, '..', '..');
  const ref = { tenantId: 'ten_switch', endUserId: null };
  let first: EmbeddingsServer;
  let second: EmbeddingsServer;
  const dirs: string[] = [];

  beforeAll(async () => {
    first = await startEmbeddingsServer({ model: 'first-embed', dimensions: 48 });
    second = await startEmbeddingsServer({ model: 'second-embed', dimensions: 32 });
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A data folder the first server embedded: the notes and a chat. Returns its passages. */
  async function folder(): Promise<{ dataDir: string; passages: string[] }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'library-switch-'));
    dirs.push(dataDir);
    const stack = await openLocalStack({ dataDir, embed: { url: first.url, model: first.model } });
    for (const text of NOTES) await stack.services.capture.capture(ref, { text });
    await stack.services.chat.chat(ref, 'When does the plumber come?');
    await stack.settled();
    const passages = stack.db.prepare('SELECT text FROM passages ORDER BY rowid').pluck().all() as string[];
    stack.close();
    return { dataDir, passages };
  }

  const env = (dataDir: string, server: EmbeddingsServer) => ({
    ...process.env,
    LIBRARY_DATA_DIR: dataDir,
    LIBRARY_EMBED_URL: server.url,
    LIBRARY_EMBED_MODEL: server.model,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    PORT: '1',
  });
  // One process (no tsx or npx launcher in between), so SIGKILL stops the reindex itself.
  const command = ['--import', 'tsx', join(root, 'bin', 'library.ts')];
  const library = (dataDir: string, server: EmbeddingsServer, ...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [...command, ...args], { cwd: root, env: env(dataDir, server) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('exit', (status) => resolve({ status, stdout, stderr }));
    });
  /** The meaning leg's hits for a query, the folder started with this server's embedder. */
  async function meaningHits(dataDir: string, server: EmbeddingsServer, q: string) {
    const stack = await openLocalStack({ dataDir, embed: { url: server.url, model: server.model } });
    try {
      return (await stack.services.search.legs(ref, q)).vectorHits;
    } finally {
      stack.close();
    }
  }
  const embeddedPassages = (server: EmbeddingsServer, passages: string[]) =>
    server.embedded.filter((t) => passages.includes(t));

  it('serve refuses the folder with another embedder; reindex switches it, and search works with the new one', async () => {
    const { dataDir, passages } = await folder();
    // Never spawnSync here: the embeddings servers answer from this process's event loop.
    const refused = await library(dataDir, second, 'serve');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      "This data folder's vectors were made by openai-compatible:first-embed (48 dimensions), not by openai-compatible:second-embed (32 dimensions), the embedder configured now",
    );
    expect(refused.stderr).toContain('Run `npx library reindex`');

    const before = second.embedded.length;
    const run = await library(dataDir, second, 'reindex');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`reindex: ${passages.length}/${passages.length} passages\n`));
    expect(run.stdout).toContain(
      `library reindex: ${passages.length} passages now embedded by openai-compatible:second-embed (32 dimensions)`,
    );
    expect(embeddedPassages(second, passages).sort()).toEqual([...passages].sort());
    // And the start-up probe, and the calibration set the chat's gate is scaled by (recorded with the embedder).
    expect(second.embedded.length - before).toBe(passages.length + 1 + 2 * CALIBRATION_PAIRS.length);
    expect(run.stdout).toMatch(/its cosine scale: question-answer \d\.\d{3}, unrelated -?\d\.\d{3}/);

    const hits = await meaningHits(dataDir, second, 'how much do plums cost');
    expect(hits).toHaveLength(passages.length);
    expect(hits[0]!.passage.text).toBe(NOTES[3]);
  });

  it('a server of the recorded model that is down at start: the service starts degraded and captures once it is back', async () => {
    const { dataDir } = await folder();
    first.mode = 'error500';
    const server = await startTestServer({ dataDir, embed: { url: first.url, model: first.model, healthTtlMs: 0 } });
    try {
      const key = await server.newKey('back-later');
      expect((await server.api('/v1/health', { key })).body).toMatchObject({
        status: 'degraded',
        embedder: { name: 'openai-compatible:first-embed', dimensions: 48, state: 'degraded' },
      });
      expect(
        (await server.api('/v1/capture', { key, body: { text: 'Written while the model was down.' } })).status,
      ).toBe(503);
      first.mode = 'ok';
      expect(
        (await server.api('/v1/capture', { key, body: { text: 'Written while the model was down.' } })).status,
      ).toBe(201);
      expect((await server.api('/v1/health')).body.status).toBe('ok');
    } finally {
      first.mode = 'ok';
      dirs.splice(dirs.indexOf(dataDir), 1); // close() removes it
      await server.close();
    }
  });

  it('a reindex killed mid-way (SIGKILL) loses what it kept, nothing else: the rerun embeds only the rest, each passage once', async () => {
    const { dataDir, passages } = await folder();
    second.embedded.length = 0;
    second.delayMs = 150;
    const child = spawn(process.execPath, [...command, 'reindex', '--batch', '2'], {
      cwd: root,
      env: env(dataDir, second),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // Killed once three batches were answered: two kept for sure, the third perhaps.
    while (embeddedPassages(second, passages).length < 6) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGKILL');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 3 * second.delayMs)); // the dead child's last request is answered to no one
    second.delayMs = 0;
    const db = openDatabase(join(dataDir, 'library.db'));
    const kept = db.prepare('SELECT count(*) FROM reindex_vectors').pluck().get() as number;
    expect(db.prepare(`SELECT value FROM index_meta WHERE key = 'embedder'`).pluck().get()).toBe(
      'openai-compatible:first-embed/48',
    );
    db.close();
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(kept).toBeLessThan(passages.length);

    const firstRun = embeddedPassages(second, passages).length;
    second.embedded.length = 0;
    const rerun = await library(dataDir, second, 'reindex', '--batch', '2');
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain('continuing an earlier one');
    // The rerun embedded exactly the passages not kept, once each; together they cover every passage.
    const rest = embeddedPassages(second, passages);
    expect(rest).toHaveLength(passages.length - kept);
    expect(new Set(rest).size).toBe(rest.length);
    expect(firstRun).toBeGreaterThanOrEqual(kept);

    const hits = await meaningHits(dataDir, second, 'when is the car insurance renewed');
    expect(hits).toHaveLength(passages.length);
    expect(hits[0]!.passage.text).toBe(NOTES[5]);
  });
});
