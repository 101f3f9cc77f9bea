import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import type { LibraryRef, PassageHit } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';

const DIMENSIONS = 16;

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
