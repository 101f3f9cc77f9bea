import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lambdas/core/ids.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Issue 24 over HTTP: a grep the index cannot narrow (a two-character
 * pattern) over a library that takes seconds to read whole runs page by
 * page within its budgets (core/grep.ts), yielding the event loop, so
 * another tenant's requests are answered meanwhile; forged cursor positions
 * are 422, not 500.
 */
let server: TestServer;
let grepper: { key: string; ref: LibraryRef };
let bystander: string;
let note: string;

/** 32 documents of 1M short lines (64 MB): reading them all takes seconds (short lines are the slowest bytes to scan). */
const DOCUMENTS = 32;
const LINES = 1_000_000;
/** The lines (1-based) of document d holding the pattern. */
const plantedLines = (d: number) => [1 + ((d * 7_919) % LINES), 500_000 + d, LINES - d];
const expected: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  const a = await server.stack.services.keys.create('grepper');
  grepper = { key: a.api_key, ref: { tenantId: a.tenant_id, endUserId: null } };
  bystander = (await server.stack.services.keys.create('bystander')).api_key;
  for (const text of ['The harbour crane stopped on Friday.', 'Invoice INV-2231 is paid.', 'The cat sleeps all day.']) {
    expect((await server.api('/v1/capture', { key: bystander, body: { text } })).status).toBe(201);
  }
  // The grepper's library starts with a capture; the bulk goes straight into the index (capturing 64 MB would take minutes).
  const captured = await server.api('/v1/capture', { key: grepper.key, body: { text: 'a note: zq one\nzq two' } });
  expect(captured.status).toBe(201);
  note = captured.body.id;
  const generation = (await server.stack.ports.documents.libraryGeneration(grepper.ref))!;
  const documents: Array<{ id: string; lines: number[] }> = [];
  for (let d = 0; d < DOCUMENTS; d++) {
    const lines = new Array<string>(LINES).fill('-');
    for (const line of plantedLines(d)) lines[line - 1] = `code ZQ-${d}`;
    const id = newId('file');
    const stamp = new Date(Date.UTC(2020, 0, 1) + d * 1000).toISOString().replace('Z', '000');
    await server.stack.ports.index.put(
      grepper.ref,
      {
        itemId: id,
        kind: 'file_excerpt',
        title: `bulk ${d}`,
        sourceRef: null,
        contentDate: stamp,
        text: lines.join('\n'),
        passages: [],
        vectors: [],
      },
      generation,
    );
    documents.push({ id, lines: plantedLines(d).sort((x, y) => x - y) });
  }
  // Newest first: the captured note (now), then the bulk from the newest stamp down.
  expected.push(
    `${note}:1`,
    `${note}:2`,
    ...documents.reverse().flatMap((doc) => doc.lines.map((line) => `${doc.id}:${line}`)),
  );
}, 180_000);
afterAll(() => server?.close());

/** The time one request takes, and its answer. */
async function timed(path: string, key?: string) {
  const started = performance.now();
  const response = await server.api(path, key ? { key } : {});
  return { ms: performance.now() - started, response };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('a long unindexed grep (issue 24)', () => {
  it("answers page by page with has_more and a cursor while another tenant's health and search answer promptly; the pages find every line once", async () => {
    const search = `/v1/search?q=${encodeURIComponent('harbour crane friday')}`;
    const idle = { health: [] as number[], search: [] as number[] };
    for (let i = 0; i < 5; i++) {
      idle.health.push((await timed('/v1/health')).ms);
      idle.search.push((await timed(search, bystander)).ms);
    }

    const pages: Array<{ ms: number; count: number; hasMore: boolean }> = [];
    const found: string[] = [];
    let walking = true;
    const walk = (async () => {
      let cursor: string | null = null;
      do {
        const { ms, response } = await timed(
          `/v1/grep?pattern=zq&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          grepper.key,
        );
        expect(response.status).toBe(200);
        const body = response.body as {
          count: number;
          results: Array<{ file_id: string; line: number }>;
          has_more: boolean;
          next_cursor: string | null;
        };
        pages.push({ ms, count: body.count, hasMore: body.has_more });
        found.push(...body.results.map((r) => `${r.file_id}:${r.line}`));
        expect(body.has_more ? typeof body.next_cursor : body.next_cursor).toBe(body.has_more ? 'string' : null);
        cursor = body.next_cursor;
      } while (cursor);
    })().finally(() => {
      walking = false;
    });

    const during = { health: [] as number[], search: [] as number[] };
    await sleep(50); // the first page is under way
    while (walking) {
      const health = await timed('/v1/health');
      expect(health.response.status).toBe(200);
      if (walking) during.health.push(health.ms);
      const searched = await timed(search, bystander);
      expect(searched.response.status).toBe(200);
      expect(searched.response.body.results[0].snippet).toContain('harbour crane');
      if (walking) during.search.push(searched.ms);
      await sleep(20);
    }
    await walk;

    const walkMs = pages.reduce((sum, p) => sum + p.ms, 0);
    const report = JSON.stringify({
      idle: { health: median(idle.health), search: median(idle.search) },
      pages,
      during,
    });
    // Long: reading the whole library took seconds, over several pages, each within its 3 s budget (plus the answer's way back).
    expect(walkMs, report).toBeGreaterThan(500);
    expect(pages.length, report).toBeGreaterThanOrEqual(2);
    expect(pages[0]!.hasMore, report).toBe(true);
    for (const page of pages) expect(page.ms, report).toBeLessThan(4_500);
    // Every planted line, once, in order.
    expect(found).toEqual(expected);
    // Meanwhile the other tenant was served promptly: a few hundred milliseconds at worst, not a page's seconds.
    expect(during.health.length, report).toBeGreaterThanOrEqual(5);
    expect(during.search.length, report).toBeGreaterThanOrEqual(5);
    expect(Math.max(...during.health), report).toBeLessThan(Math.max(300, 2 * median(idle.health)));
    expect(Math.max(...during.search), report).toBeLessThan(Math.max(400, 2 * median(idle.search)));
  }, 120_000);

  it('refuses a grep cursor with a negative line, and a search cursor with a negative offset, as 422 cursor (a negative line answered 500)', async () => {
    const first = await server.api(`/v1/grep?pattern=zq&file_id=${note}&limit=1`, { key: grepper.key });
    expect(first.body).toMatchObject({ count: 1, has_more: true });
    const rewrite = (cursor: string, change: (p: any) => unknown) => {
      const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      parsed.p = change(parsed.p);
      return encodeURIComponent(Buffer.from(JSON.stringify(parsed)).toString('base64url'));
    };
    const resumed = await server.api(
      `/v1/grep?pattern=zq&file_id=${note}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: grepper.key },
    );
    expect(resumed.body.results.map((r: { line: number }) => r.line)).toEqual([2]);
    for (const line of [-1, 0.5, 1e300]) {
      const refused = await server.api(
        `/v1/grep?pattern=zq&file_id=${note}&limit=1&cursor=${rewrite(first.body.next_cursor, (p) => ({ ...p, line }))}`,
        { key: grepper.key },
      );
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/^cursor: /),
      });
    }
    const page = await server.api('/v1/search?q=the&limit=1', { key: bystander });
    expect(page.body.has_more).toBe(true);
    const refused = await server.api(`/v1/search?q=the&limit=1&cursor=${rewrite(page.body.next_cursor, () => -1)}`, {
      key: bystander,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/^cursor: /);
  });

  it('answers a 1,000-character search of distinct words', async () => {
    const q = Array.from({ length: 200 }, (_, i) => `w${i.toString(36)}`)
      .join(' ')
      .slice(0, 1000);
    const { ms, response } = await timed(`/v1/search?q=${encodeURIComponent(q)}`, bystander);
    expect(response.status).toBe(200);
    expect(response.body.query).toBe(q);
    expect(ms).toBeLessThan(2_000);
  });
});
