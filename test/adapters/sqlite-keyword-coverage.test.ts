import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import type { CommonTerms } from '../../lambdas/adapters/local/sqlite-keyword-leg.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { SqliteSearchLegs } from '../../lambdas/adapters/local/sqlite-search-legs.js';
import { parseFilter } from '../../lambdas/core/filter.js';
import type { LibraryRef, PassageHit } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';
import { DIMENSIONS, SQLITE_INDEX_WAYS } from '../support/sqlite-index-ways.js';

describe('SqliteSearchIndex: keyword coverage', () => {
  const ref: LibraryRef = { tenantId: 't', endUserId: 'notes' };
  const other: LibraryRef = { tenantId: 't', endUserId: 'other' };

  it("reports each keyword hit's share of the query's term weight, with the terms' rarity in the caller's library, stemmed as BM25 matched them", async () => {
    const index = new SqliteSearchIndex(openDatabase(':memory:'), DIMENSIONS, 'test');
    const texts = [
      'Turn the heating up tonight',
      'Prices went up again',
      'Pick up the kids',
      'Wake up early',
      'Rent is due',
    ];
    const ids = [];
    for (const [i, text] of texts.entries()) {
      const item = indexItem(text, axisVector(DIMENSIONS, i));
      ids.push(item.itemId);
      await index.put(ref, item);
    }
    // Another library full of "rent": it must not make the word common in this one.
    for (let i = 0; i < 5; i++) await index.put(other, indexItem(`rent note ${i}`, axisVector(DIMENSIONS, 9)));

    // Hits found only through their neighbours' words (core/memory-context.ts) hold none of the query.
    const own = (hits: PassageHit[]) => hits.filter((h) => !h.viaContext);
    const hits = own(await index.keywordSearch(ref, { text: 'rent going up', limit: 10 }));
    const coverage = new Map(hits.map((h) => [h.itemId, h.coverage!]));
    // Notes holding only "up" hold the same share ("going" is in none of them).
    expect(coverage.get(ids[1]!)).toBeCloseTo(coverage.get(ids[0]!)!, 10);
    // "up" is in 4 of 5 notes here, "rent" in 1 (counted over the whole table, it
    // would be the commoner word): the rent note holds far more of the query.
    expect(coverage.get(ids[4]!)!).toBeGreaterThan(3 * coverage.get(ids[0]!)!);
    for (const c of coverage.values()) expect(c).toBeGreaterThan(0), expect(c).toBeLessThan(1);

    const stemmed = await index.keywordSearch(ref, { text: 'heating', limit: 10 });
    expect(own(stemmed).map((h) => [h.itemId, h.coverage])).toEqual([[ids[0], 1]]);
    for (const hit of stemmed.filter((h) => h.viaContext)) expect(hit.coverage).toBe(0);
  });
});

describe('SqliteSearchIndex: the keyword leg of a library that was alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'library-keyword-alone-'));
  const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };
  const bob: LibraryRef = { tenantId: 't', endUserId: 'bob' };
  // Bob's notes say "heron" more often and in their titles: ranked over the whole table, they come first.
  const bobsNotes = () =>
    Array.from({ length: 30 }, (_, i) =>
      indexItem(`heron heron heron ${i}`, axisVector(DIMENSIONS, 3), { title: 'heron heron' }),
    );

  for (const [way, open] of Object.entries(SQLITE_INDEX_WAYS)) {
    it(`keeps to the library once another one has items, whichever connection wrote them (${way})`, async () => {
      for (const writer of ['the same connection', 'another connection']) {
        const file = join(dir, `${way}-${writer}.sqlite`.replace(/\s/g, '-'));
        const index = await open(file);
        const other =
          writer === 'the same connection' ? index : new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
        const hers = indexItem('A heron by the lake', axisVector(DIMENSIONS, 1));
        await index.put(alice, hers);
        // Searched while alone in the index, then again once bob's notes are in.
        expect((await index.keywordSearch(alice, { text: 'heron', limit: 5 })).map((h) => h.itemId)).toEqual([
          hers.itemId,
        ]);
        for (const note of bobsNotes()) await other.put(bob, note);
        const hits = await index.keywordSearch(alice, { text: 'heron', limit: 5 });
        expect(hits.map((h) => h.itemId)).toEqual([hers.itemId]);
        expect(hits[0]!.coverage).toBe(1);
        await index.close();
        if (other !== index) await other.close();
      }
    });
  }
});

describe('SqliteSearchIndex: common terms in a large library', () => {
  const ref: LibraryRef = { tenantId: 't', endUserId: 'notes' };
  // A "large" library for the test: the rule applies from 10 items here (from 50,000 by default, DEFAULT_COMMON_TERMS).
  async function library(commonTerms: CommonTerms | null) {
    const db = openDatabase(':memory:');
    const index = new SqliteSearchIndex(db, DIMENSIONS, 'test', {
      legs: new SqliteSearchLegs(db, DIMENSIONS, undefined, commonTerms),
    });
    const ids: Record<string, string> = {};
    const put = async (name: string, text: string) => {
      // Not short memories (core/memory-context.ts): no item is found through its neighbours' words here.
      const item = indexItem(text, axisVector(DIMENSIONS, 1), { title: null, kind: 'creation' });
      ids[name] = item.itemId;
      await index.put(ref, item);
    };
    for (let i = 0; i < 10; i++) await put(`water${i}`, `Water the plants on day ${i}`);
    await put('both', 'Water the cactus once a month');
    await put('cactus', 'The cactus flowered in May');
    await put('other', 'Bins go out on Tuesday');
    return { index, ids };
  }
  const own = (hits: PassageHit[]) => hits.filter((h) => !h.viaContext);

  it("ranks by the telling terms only, and still counts the common ones in each hit's coverage", async () => {
    const { index, ids } = await library({ share: 0.5, fromItems: 10 });
    // "water" is in 11 of 13 items: common. Only the items holding "cactus" are keyword hits.
    const hits = own(await index.keywordSearch(ref, { text: 'water cactus', limit: 20 }));
    expect(new Set(hits.map((h) => h.itemId))).toEqual(new Set([ids.both, ids.cactus]));
    const coverage = new Map(hits.map((h) => [h.itemId, h.coverage!]));
    expect(coverage.get(ids.both!)).toBe(1);
    expect(coverage.get(ids.cactus!)).toBeGreaterThan(0.5);
    expect(coverage.get(ids.cactus!)).toBeLessThan(1);
  });

  it('ranks by every term when all are common or the others are found nowhere', async () => {
    const { index } = await library({ share: 0.5, fromItems: 10 });
    expect(own(await index.keywordSearch(ref, { text: 'water', limit: 20 }))).toHaveLength(11);
    expect(own(await index.keywordSearch(ref, { text: 'water zzqxv', limit: 20 }))).toHaveLength(11);
  });

  it('scores only the items holding the rarest ranking terms, each on every ranking term, when their holders fit the budget', async () => {
    // "once" is in 1 item, "cactus" in 2: a budget of 1 holder takes "once" alone, so the item holding only "cactus" is not scored.
    const { index, ids } = await library({ share: 0.5, fromItems: 10, candidatePostings: 1 });
    const hits = own(await index.keywordSearch(ref, { text: 'cactus once', limit: 20 }));
    expect(hits.map((h) => h.itemId)).toEqual([ids.both]);
    // Its score still counts "cactus": above its score for "once" alone.
    const [onceAlone] = own(await index.keywordSearch(ref, { text: 'once', limit: 20 }));
    expect(hits[0]!.rawScore).toBeGreaterThan(onceAlone!.rawScore);
    // The rare terms' match keeps the kinds asked for, and a filter still runs beside it.
    expect(own(await index.keywordSearch(ref, { text: 'cactus once', limit: 20, kinds: ['creation'] }))).toHaveLength(
      1,
    );
    expect(await index.keywordSearch(ref, { text: 'cactus once', limit: 20, kinds: ['file_excerpt'] })).toEqual([]);
    const noProject = parseFilter({ 'metadata.project': 'gemini' });
    expect(await index.keywordSearch(ref, { text: 'cactus once', limit: 20, filter: noProject })).toEqual([]);
    // A budget every holder fits, or none: every item holding a ranking term is scored.
    for (const candidatePostings of [3, undefined]) {
      const every = await library({ share: 0.5, fromItems: 10, candidatePostings });
      const found = own(await every.index.keywordSearch(ref, { text: 'cactus once', limit: 20 }));
      expect(new Set(found.map((h) => h.itemId))).toEqual(new Set([every.ids.both, every.ids.cactus]));
    }
  });

  it('ranks by every term in a library smaller than the rule starts at, and with the rule off', async () => {
    for (const rule of [{ share: 0.5, fromItems: 14 }, null]) {
      const { index } = await library(rule);
      expect(own(await index.keywordSearch(ref, { text: 'water cactus', limit: 20 }))).toHaveLength(12);
    }
  });
});

describe('SqliteSearchIndex: the term counts the keyword leg remembers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'library-keyword-counts-'));
  const ref: LibraryRef = { tenantId: 't', endUserId: 'notes' };
  for (const [way, open] of Object.entries(SQLITE_INDEX_WAYS)) {
    it(`counts a term again once anything is written, whichever connection wrote it (${way})`, async () => {
      for (const writer of ['the same connection', 'another connection']) {
        const file = join(dir, `${way}-${writer}.sqlite`.replace(/\s/g, '-'));
        const index = await open(file);
        const other =
          writer === 'the same connection' ? index : new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
        const put = (into: SqliteSearchIndex, text: string) =>
          into.put(ref, indexItem(text, axisVector(DIMENSIONS, 1), { title: null, kind: 'creation' }));
        for (const text of ['Bins go out on Tuesday', 'Water the cactus', 'The cactus flowered', 'Dentist at noon'])
          await put(index, text);
        // "zebra" counted while no item holds it: only the cactus notes are hits.
        expect(await index.keywordSearch(ref, { text: 'cactus zebra', limit: 10 })).toHaveLength(2);
        await put(other, 'A zebra crossing by the school');
        const hits = await index.keywordSearch(ref, { text: 'cactus zebra', limit: 10 });
        expect(hits).toHaveLength(3);
        // Its count read again: the new note holds "zebra", the rarer and weightier of the two terms.
        const zebra = hits.find((h) => h.passage.text.includes('zebra'))!;
        expect(zebra.viaContext).toBeUndefined();
        expect(zebra.coverage).toBeGreaterThan(0.5);
        await index.close();
        if (other !== index) await other.close();
      }
    });
  }
});
