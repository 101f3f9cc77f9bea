import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSqliteVec, openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { VectorCache } from '../../lambdas/adapters/local/vector-cache.js';
import { VectorScan } from '../../lambdas/adapters/local/vector-scan.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';

const DIMENSIONS = 32;
const library = (i: number): LibraryRef => ({ tenantId: 't', endUserId: `user-${i}` });
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'library-vectors-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('VectorCache: the scans of the libraries searched lately, under a budget', () => {
  const scanOf = (vectors: number) => {
    const scan = new VectorScan(DIMENSIONS, vectors);
    for (let i = 0; i < vectors; i++) scan.add(i + 1, 'file_excerpt', axisVector(DIMENSIONS, i));
    return scan;
  };

  it('drops the least recently used scans once over its budget, and keeps the one in use even alone over it', () => {
    const one = scanOf(10).bytes;
    const cache = new VectorCache(one * 2.5);
    cache.set(1, scanOf(10));
    cache.set(2, scanOf(10));
    expect(cache.get(1)).toBeDefined(); // 1 is now the most recent
    cache.set(3, scanOf(10));
    expect([cache.peek(1), cache.peek(2), cache.peek(3)].map(Boolean)).toEqual([true, false, true]);
    expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);

    cache.set(4, scanOf(100)); // larger than the whole budget: the others go, it stays
    expect(cache.size).toBe(1);
    expect(cache.peek(4)?.count).toBe(100);
  });

  it('sizes a loaded scan to its library: 80 vectors take about 80 vectors of memory, not a fixed chunk', () => {
    const scan = scanOf(80);
    // Its floats, its bit code (padded to 16 bytes, the SIMD scan's step), rowid and kind, and its map entry.
    const perVector = DIMENSIONS * 4 + Math.ceil(DIMENSIONS / 128) * 16 + 9 + 40;
    expect(scan.bytes).toBeLessThanOrEqual(80 * perVector * 1.05);
  });
});

describe('SqliteSearchIndex: passage vectors', () => {
  it('answers every library right under a cache budget that holds only one of them', async () => {
    const db = openDatabase(':memory:');
    const index = new SqliteSearchIndex(db, DIMENSIONS, 'test', { vectorCacheBytes: 8 * 1024 });
    const items = new Map<number, string>();
    for (let i = 0; i < 12; i++) {
      const item = indexItem(`note ${i}`, axisVector(DIMENSIONS, i));
      items.set(i, item.itemId);
      await index.put(library(i), item);
      for (let j = 1; j <= 20; j++)
        await index.put(library(i), indexItem(`filler ${i} ${j}`, axisVector(DIMENSIONS, i + j)));
    }
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 12; i++) {
        const hits = await index.vectorSearch(library(i), { vector: axisVector(DIMENSIONS, i), limit: 1 });
        expect(hits.map((h) => h.itemId)).toEqual([items.get(i)]);
      }
    }
    // A write to a library whose scan was dropped is read when it is searched again.
    const late = indexItem('late note', axisVector(DIMENSIONS, 30, 0.2));
    await index.put(library(0), late);
    expect(
      (await index.vectorSearch(library(0), { vector: axisVector(DIMENSIONS, 30, 0.2), limit: 1 }))[0]!.itemId,
    ).toBe(late.itemId);
  });

  it('moves the vectors of a folder written with a sqlite-vec vec0 table into the plain table, searchable as before', async () => {
    const file = join(tempDir(), 'library.db');
    const first = new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
    const ref = library(1);
    const kept = indexItem('the heron nests by the lake', axisVector(DIMENSIONS, 3));
    await first.put(ref, kept);
    await first.put(ref, indexItem('another note', axisVector(DIMENSIONS, 9)));
    // Rewrite the vectors as a version before this one kept them: a vec0 table partitioned by library.
    const old = openDatabase(file);
    loadSqliteVec(old);
    old.exec(`ALTER TABLE passage_vectors RENAME TO plain_vectors;
      DROP INDEX passage_vectors_by_library;
      CREATE VIRTUAL TABLE passage_vectors USING vec0(library_id INTEGER PARTITION KEY, kind TEXT, embedding FLOAT[${DIMENSIONS}] distance_metric=cosine);
      INSERT INTO passage_vectors (rowid, library_id, kind, embedding) SELECT rowid, library_id, kind, embedding FROM plain_vectors;
      DROP TABLE plain_vectors;`);
    old.close();

    const db = openDatabase(file);
    const reopened = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const sql = db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'passage_vectors'`).pluck().get() as string;
    expect(sql).not.toMatch(/vec0/i);
    expect(
      db.prepare(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'passage_vectors_%chunks%'`).pluck().get(),
    ).toBe(0);
    const hits = await reopened.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 3), limit: 2 });
    expect(hits.map((h) => h.itemId)[0]).toBe(kept.itemId);
    expect(hits).toHaveLength(2);
  });

  it("refuses a vector of other dimensions than its embedder's", async () => {
    const index = new SqliteSearchIndex(openDatabase(':memory:'), DIMENSIONS, 'test');
    await expect(
      index.put(library(1), indexItem('short vector', new Float32Array(DIMENSIONS - 1).fill(0.1))),
    ).rejects.toThrow();
  });

  it('keeps a data folder of many small libraries near the size of what it holds', async () => {
    const dimensions = 512;
    const file = join(tempDir(), 'library.db');
    const db = openDatabase(file);
    const index = new SqliteSearchIndex(db, dimensions, 'test');
    let texts = 0;
    let vectors = 0;
    for (let i = 0; i < 150; i++) {
      for (let j = 0; j < 20; j++) {
        const text = `Library ${i}, note ${j}: the parcel for flat ${j} was left with the neighbour at number ${i}.`;
        texts += Buffer.byteLength(text);
        vectors += dimensions * 4;
        await index.put(library(i), indexItem(text, axisVector(dimensions, i * 20 + j)));
      }
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = (names: string[]) =>
      db
        .prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN (${names.map(() => '?').join(', ')})`)
        .pluck()
        .get(...names) as number;
    // The vectors take about their own size (7 to a 16 KiB page), where a vec0 table reserved 1,024 vectors a library.
    expect(pages(['passage_vectors', 'passage_vectors_by_library'])).toBeLessThan(vectors * 1.2);
    // The rest is the texts and their indexes (rows, FTS5 words and trigrams); in all, under twice the texts and vectors.
    db.close();
    expect(statSync(file).size).toBeLessThan((texts + vectors) * 2);
  });
});
