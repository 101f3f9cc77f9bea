import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { InProcessBackgroundWork } from '../../lambdas/adapters/local/in-process-background-work.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import type { Embedder } from '../../lambdas/core/ports.js';
import { coreHarness } from '../support/core-harness.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/** A hashing embedder whose passage embeddings can be held back, to see what happens before they land. */
class HeldEmbedder implements Embedder {
  private readonly inner = new HashingEmbedder();
  readonly name = this.inner.name;
  readonly dimensions = this.inner.dimensions;
  holding = false;
  private waiting: Array<() => void> = [];
  async embed(texts: readonly string[], purpose: 'query' | 'passage') {
    if (this.holding && purpose === 'passage') await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.inner.embed(texts);
  }
  release() {
    this.holding = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

async function chatWhileHeld() {
  const reports: unknown[] = [];
  const background = new InProcessBackgroundWork((_what, error) => reports.push(error));
  const embedder = new HeldEmbedder();
  const db = openDatabase(':memory:');
  const index = new SqliteSearchIndex(db, embedder.dimensions, embedder.name);
  const { services, ports } = coreHarness({ embedder, index, deferVectors: { index, background } });
  const rows = (table: 'items' | 'passage_vectors') =>
    db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };
  await services.capture.capture(alice, { text: 'The grey heron nests by the lake from February to June.' });
  embedder.holding = true;
  const response = await services.chat.chat(alice, 'When does the grey heron nest by the lake?');
  const {
    vectors: [replyVector],
  } = await embedder.embed([response.reply], 'query');
  const replyByMeaning = async () =>
    (await ports.index.vectorSearch(alice, { vector: replyVector!, limit: 10, kinds: ['chat'] })).filter(
      (h) => h.passage.text === response.reply,
    );
  return { services, ports, embedder, background, reports, alice, response, replyByMeaning, rows };
}

describe('chat memory', () => {
  it('answers before the reply is embedded; words find the reply at once, meaning once its vectors land', async () => {
    const { ports, embedder, background, reports, alice, response, replyByMeaning } = await chatWhileHeld();
    expect(response.sources).toHaveLength(1);
    const byWords = await ports.index.keywordSearch(alice, {
      text: 'heron nests February',
      limit: 10,
      kinds: ['chat'],
    });
    expect(byWords.map((h) => h.passage.text)).toContain(response.reply);
    expect(await replyByMeaning()).toEqual([]);

    embedder.release();
    await background.settled();
    const found = await replyByMeaning();
    expect(found).toHaveLength(1);
    expect(found[0]!.rawScore).toBeGreaterThan(0.99);
    expect(reports).toEqual([]);
  });

  it('an end user erased before the reply is embedded stays erased: the late vectors write nothing', async () => {
    const { services, ports, embedder, background, reports, alice, replyByMeaning, rows } = await chatWhileHeld();
    const report = await services.endUsers.erase('t', 'alice');
    expect(report.messages_deleted).toBe(2);

    embedder.release();
    await background.settled();
    expect(await replyByMeaning()).toEqual([]);
    expect(await ports.index.keywordSearch(alice, { text: 'heron', limit: 10 })).toEqual([]);
    expect((await services.endUsers.list('t', { limit: 10 })).items).toEqual([]);
    expect(rows('items')).toBe(0);
    expect(rows('passage_vectors')).toBe(0);
    expect(reports).toEqual([]);
  });
});

describe('chat memory without background work (a Lambda)', () => {
  it('embeds first and writes once: the reply is found by meaning as soon as the chat answers', async () => {
    const embedder = new HashingEmbedder();
    const { services, ports } = coreHarness({ embedder });
    const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };
    await services.capture.capture(alice, { text: 'The grey heron nests by the lake from February to June.' });
    const response = await services.chat.chat(alice, 'When does the grey heron nest by the lake?');
    const {
      vectors: [replyVector],
    } = await embedder.embed([response.reply]);
    const hits = await ports.index.vectorSearch(alice, { vector: replyVector!, limit: 10, kinds: ['chat'] });
    expect(hits.find((h) => h.passage.text === response.reply)?.rawScore).toBeGreaterThan(0.99);
  });
});
