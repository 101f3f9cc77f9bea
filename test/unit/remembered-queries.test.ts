import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibraryRef } from '../../lambdas/core/model.js';
import type { Embedder, Embedding } from '../../lambdas/core/ports.js';
import { RememberedQueries } from '../../lambdas/core/remembered-queries.js';
import { openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/** The texts each call of the wrapped embedder was asked for, by purpose. */
class CountingEmbedder implements Embedder {
  readonly asked: { texts: readonly string[]; purpose: string }[] = [];
  failNext = false;
  constructor(private readonly inner: Embedder = new HashingEmbedder()) {}
  get name() {
    return this.inner.name;
  }
  get dimensions() {
    return this.inner.dimensions;
  }
  async embed(texts: readonly string[], purpose: 'query' | 'passage'): Promise<Embedding> {
    this.asked.push({ texts, purpose });
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the model is down');
    }
    return this.inner.embed(texts, purpose);
  }
  queries(text: string) {
    return this.asked.filter((a) => a.purpose === 'query' && a.texts.includes(text)).length;
  }
}

const alice: LibraryRef = { tenantId: 'ten_a', endUserId: null };

describe('RememberedQueries', () => {
  it("embeds a library's query once, and gives each caller its own copy of the same vector and tokens", async () => {
    const embedder = new CountingEmbedder();
    const remembered = new RememberedQueries();
    const first = await remembered.embed(alice, 'when is the plumber coming', embedder);
    const again = await remembered.embed(alice, 'when is the plumber coming', embedder);
    expect(embedder.queries('when is the plumber coming')).toBe(1);
    expect(Array.from(again.vectors[0]!)).toEqual(Array.from(first.vectors[0]!));
    expect(again.tokens).toBe(first.tokens);
    again.vectors[0]![0] = 42;
    expect((await remembered.embed(alice, 'when is the plumber coming', embedder)).vectors[0]![0]).not.toBe(42);
  });

  it('never answers one library from what another asked, nor one embedder from another', async () => {
    const embedder = new CountingEmbedder();
    const remembered = new RememberedQueries();
    await remembered.embed(alice, 'rent', embedder);
    await remembered.embed({ tenantId: 'ten_b', endUserId: null }, 'rent', embedder);
    await remembered.embed({ tenantId: 'ten_a', endUserId: 'eu_1' }, 'rent', embedder);
    await remembered.embed(alice, 'rent', new CountingEmbedder(new HashingEmbedder(32)));
    expect(embedder.queries('rent')).toBe(3);
  });

  it('shares one call among the same query asked at once, and asks again after a failed call', async () => {
    const embedder = new CountingEmbedder();
    const remembered = new RememberedQueries();
    await Promise.all([1, 2, 3].map(() => remembered.embed(alice, 'bins day', embedder)));
    expect(embedder.queries('bins day')).toBe(1);
    embedder.failNext = true;
    await expect(remembered.embed(alice, 'boiler', embedder)).rejects.toThrow('the model is down');
    await remembered.embed(alice, 'boiler', embedder);
    expect(embedder.queries('boiler')).toBe(2);
  });

  it('forgets the least recently asked queries past its memory, sized by the embedder’s vectors', async () => {
    const embedder = new CountingEmbedder(new HashingEmbedder(512));
    const remembered = new RememberedQueries(3 * (512 * 4 + 200));
    for (const text of ['one', 'two', 'three', 'four', 'five']) await remembered.embed(alice, text, embedder);
    await remembered.embed(alice, 'five', embedder);
    await remembered.embed(alice, 'one', embedder);
    expect(embedder.queries('five')).toBe(1);
    expect(embedder.queries('one')).toBe(2);
    // Vectors a quarter the size: the same memory holds all five.
    const small = new CountingEmbedder(new HashingEmbedder(128));
    const roomy = new RememberedQueries(3 * (512 * 4 + 200));
    for (const text of ['one', 'two', 'three', 'four', 'five']) await roomy.embed(alice, text, small);
    await roomy.embed(alice, 'one', small);
    expect(small.queries('one')).toBe(1);
  });
});

describe('searches and chats over the local stack', () => {
  it("embed a search's text once over its pages, and a chat's question asked before by search", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'library-remembered-'));
    const embedder = new CountingEmbedder();
    const stack = await openLocalStack({ dataDir: dir, embedder });
    try {
      for (let i = 0; i < 6; i++)
        await stack.services.capture.capture(alice, { text: `Plumber visit ${i}: the sink trap.` });
      await stack.settled();
      const q = 'plumber sink trap';
      const first = await stack.services.search.search(alice, { q, limit: 2 });
      expect(first.nextCursor).not.toBeNull();
      const second = await stack.services.search.search(alice, { q, limit: 2, cursor: first.nextCursor! });
      expect(second.items.length).toBeGreaterThan(0);
      expect(second.items.map((r) => r.id)).not.toEqual(first.items.map((r) => r.id));
      await stack.services.chat.chat(alice, q);
      expect(embedder.queries(q)).toBe(1);
      // Passages are embedded as before: each capture's text reached the model.
      expect(embedder.asked.filter((a) => a.purpose === 'passage').length).toBeGreaterThan(0);
    } finally {
      stack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
