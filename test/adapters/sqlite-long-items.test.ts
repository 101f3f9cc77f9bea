import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { WHOLE_ITEM_PASSAGES } from '../../lambdas/adapters/local/sqlite-memory-contexts.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { chunkText } from '../../lambdas/core/chunking.js';
import type { IndexItem, LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';
import { DIMENSIONS, SQLITE_INDEX_WAYS } from '../support/sqlite-index-ways.js';

/** A text of `lines` filler lines with `fact` at line `at` (1-based), chunked as captures chunk it. */
function longItem(lines: number, at: number, fact: string, overrides: Partial<IndexItem> = {}): IndexItem {
  const text = Array.from({ length: lines }, (_, i) =>
    i + 1 === at ? fact : `Filler sentence number ${i + 1} about general weather and clouds.`,
  ).join('\n');
  const passages = chunkText(text);
  return {
    ...indexItem(text, axisVector(DIMENSIONS, 0), overrides),
    passages,
    vectors: passages.map(() => axisVector(DIMENSIONS, 0)),
  };
}

const keywordRows = (file: string) =>
  openDatabase(file).prepare('SELECT count(*) FROM items_fts').pluck().get() as number;

describe('SqliteSearchIndex: a long item is ranked by its passages', () => {
  const ref: LibraryRef = { tenantId: 't', endUserId: 'long' };

  for (const [way, open] of Object.entries(SQLITE_INDEX_WAYS)) {
    it(`ranks a long document holding every word above a short note holding one, and shows the passage (${way})`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'long-items-')), 'index.db');
      const index = await open(file);
      try {
        const long = longItem(300, 212, 'The secret vault code for project Marigold is 4471.');
        expect(long.passages.length).toBeGreaterThan(WHOLE_ITEM_PASSAGES);
        const snippet = indexItem(
          'console.log(r.status, r.reject_code);\nconsole.log((e as Error).code);',
          axisVector(DIMENSIONS, 1),
        );
        const note = indexItem('The code review is on Friday', axisVector(DIMENSIONS, 2));
        for (const item of [long, snippet, note]) await index.put(ref, item);

        const hits = await index.keywordSearch(ref, { text: 'what is the vault code for Marigold', limit: 10 });
        expect(hits.map((h) => h.itemId)).toEqual([long.itemId, expect.any(String), expect.any(String)]);
        const first = hits[0]!;
        expect(first.passage.text).toContain('Marigold');
        expect(first.passage.lineStart).toBeLessThanOrEqual(212);
        expect(first.passage.lineEnd).toBeGreaterThanOrEqual(212);
        // It holds the query's words itself (not through neighbours), the rarest of them included.
        expect(first.viaContext).toBeUndefined();
        expect(first.coverage!).toBeGreaterThan(hits[1]!.coverage!);
        // One hit per item, however many of its passages match.
        const common = await index.keywordSearch(ref, { text: 'filler weather', limit: 10 });
        expect(common.map((h) => h.itemId)).toEqual([long.itemId]);
        // Its title is found in every passage's row.
        const titled = await index.keywordSearch(ref, { text: 'title', limit: 10 });
        expect(titled.map((h) => h.itemId).sort()).toEqual([long, snippet, note].map((i) => i.itemId).sort());
      } finally {
        await index.close();
      }
    });
  }

  it('writes a keyword row per passage of a long item and removes every one of them with it, and with a retitle', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'long-items-')), 'index.db');
    const index = new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
    const note = indexItem('A short note about lunch', axisVector(DIMENSIONS, 1));
    await index.put(ref, note);
    expect(keywordRows(file)).toBe(1);
    const long = longItem(120, 40, 'The boiler was serviced by Hartmann on Monday.');
    await index.put(ref, long);
    expect(keywordRows(file)).toBe(1 + long.passages.length);

    await index.updateItem(ref, long.itemId, { title: 'Zanzibar ledger' });
    expect(keywordRows(file)).toBe(1 + long.passages.length);
    expect((await index.keywordSearch(ref, { text: 'Zanzibar', limit: 5 })).map((h) => h.itemId)).toEqual([
      long.itemId,
    ]);
    expect(await index.keywordSearch(ref, { text: 'title', limit: 5 })).toHaveLength(1); // the note's, not the old one

    await index.put(ref, { ...long, text: `${long.text}\nOne more line.` }); // a re-put replaces its rows
    expect(keywordRows(file)).toBe(1 + long.passages.length);
    await index.remove(ref, long.itemId);
    expect(keywordRows(file)).toBe(1);
    expect(await index.keywordSearch(ref, { text: 'Hartmann boiler', limit: 5 })).toEqual([]);
    await index.removeLibrary(ref);
    expect(keywordRows(file)).toBe(0);
    await index.close();
  });

  it('a folder whose long items have one whole row gets a row per passage for them when opened', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'long-items-')), 'index.db');
    const first = new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
    const long = longItem(300, 212, 'The secret vault code for project Marigold is 4471.');
    const snippet = indexItem('console.log(r.reject_code, e.code);', axisVector(DIMENSIONS, 1));
    await first.put(ref, long);
    await first.put(ref, snippet);
    await first.close();
    // As a version before this one wrote it: the long item's text in one row, and no marker.
    const db = openDatabase(file);
    const itemRowid = db.prepare('SELECT rowid FROM items WHERE item_id = ?').pluck().get(long.itemId) as number;
    const libraryToken = db.prepare('SELECT library_id FROM items WHERE rowid = ?').pluck().get(itemRowid) as number;
    db.prepare('DELETE FROM items_fts WHERE rowid < 0').run();
    db.prepare(
      `INSERT INTO items_fts (rowid, library, kind, title, body, context) VALUES (?, ?, 'kfile', ?, ?, '')`,
    ).run(itemRowid, `lib${libraryToken}`, long.title, long.text);
    db.prepare(`DELETE FROM index_meta WHERE key = 'items_fts_passages'`).run();
    db.close();

    const reopened = new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test');
    expect(keywordRows(file)).toBe(1 + long.passages.length);
    const hits = await reopened.keywordSearch(ref, { text: 'what is the vault code for Marigold', limit: 10 });
    expect(hits[0]!.itemId).toBe(long.itemId);
    expect(hits[0]!.passage.text).toContain('Marigold');
    await reopened.close();
  });
});
