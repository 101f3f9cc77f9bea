import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';

const DIMENSIONS = 16;

function fresh() {
  const db = openDatabase(':memory:');
  const index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
  const rows = (table: 'items' | 'passages' | 'passage_vectors') =>
    db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  return { index, rows };
}

describe('SqliteSearchIndex: vectors attached after the item (DeferredVectorIndex)', () => {
  const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };
  const heron = () =>
    indexItem('The heron nests by the lake', axisVector(DIMENSIONS, 6), { kind: 'chat', vectors: [] });

  it('finds an item put without vectors by words at once, and by meaning once they are attached, in its own library only', async () => {
    const { index, rows } = fresh();
    const item = heron();
    await index.put(alice, item);
    expect((await index.keywordSearch(alice, { text: 'heron', limit: 10 })).map((h) => h.itemId)).toEqual([
      item.itemId,
    ]);
    expect(await index.vectorSearch(alice, { vector: axisVector(DIMENSIONS, 6), limit: 10 })).toEqual([]);
    expect(await index.itemsWithoutVectors()).toEqual([
      { ref: alice, itemId: item.itemId, texts: ['The heron nests by the lake'] },
    ]);

    const bob: LibraryRef = { ...alice, endUserId: 'bob' };
    await index.put(bob, indexItem('bob note', axisVector(DIMENSIONS, 1)));
    expect(
      await index.attachPassageVectors(bob, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 6) }]),
    ).toBe(false);
    expect(rows('passage_vectors')).toBe(1);

    expect(
      await index.attachPassageVectors(alice, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 6) }]),
    ).toBe(true);
    const byVector = await index.vectorSearch(alice, { vector: axisVector(DIMENSIONS, 6), limit: 10 });
    expect(byVector.map((h) => [h.itemId, h.kind])).toEqual([[item.itemId, 'chat']]);
    expect(byVector[0]!.rawScore).toBeGreaterThan(0.99);
    expect(await index.itemsWithoutVectors()).toEqual([]);
    expect(await index.vectorSearch(bob, { vector: axisVector(DIMENSIONS, 6), limit: 10 })).toHaveLength(1); // bob's own note only
  });

  it('attaching twice replaces the vectors, and the in-memory scan follows', async () => {
    const { index, rows } = fresh();
    const item = heron();
    await index.put(alice, item);
    await index.vectorSearch(alice, { vector: axisVector(DIMENSIONS, 6), limit: 10 }); // loads the scan
    await index.attachPassageVectors(alice, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 6) }]);
    await index.attachPassageVectors(alice, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 2) }]);
    expect(rows('passage_vectors')).toBe(1);
    const [hit] = await index.vectorSearch(alice, { vector: axisVector(DIMENSIONS, 2), limit: 10 });
    expect(hit!.rawScore).toBeGreaterThan(0.99);
  });

  it('writes nothing for an item erased first: no row is left behind', async () => {
    const { index, rows } = fresh();
    const item = heron();
    await index.put(alice, item);
    await index.removeLibrary(alice);
    expect(
      await index.attachPassageVectors(alice, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 6) }]),
    ).toBe(false);
    // The same end user starts a new library: the late vectors still do not land in it.
    await index.put(alice, indexItem('a new note', axisVector(DIMENSIONS, 1)));
    expect(
      await index.attachPassageVectors(alice, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 6) }]),
    ).toBe(false);
    expect(rows('items')).toBe(1);
    expect(rows('passage_vectors')).toBe(1);
    expect(await index.itemsWithoutVectors()).toEqual([]);
  });
});
