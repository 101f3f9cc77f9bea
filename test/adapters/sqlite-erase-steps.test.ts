import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';
import { turnsDuring } from '../support/event-loop-turns.js';

const DIMENSIONS = 16;

describe("an erasure's removal of a generation", () => {
  it('ends the generation at once, then removes its items a step at a time, other work served between', async () => {
    const index = new SqliteSearchIndex(
      openDatabase(join(mkdtempSync(join(tmpdir(), 'library-erase-steps-')), 'library.sqlite')),
      DIMENSIONS,
      'test',
    );
    const erased: LibraryRef = { tenantId: 't', endUserId: 'erased' };
    const kept: LibraryRef = { tenantId: 't', endUserId: 'kept' };
    const items = Array.from({ length: 450 }, (_, i) =>
      indexItem(`erased note ${i} walrus`, axisVector(DIMENSIONS, 1)),
    );
    await index.putMany(erased, items, 'g1');
    await index.put(kept, indexItem('kept note walrus', axisVector(DIMENSIONS, 1)), 'g2');

    const { result: counts, turns } = await turnsDuring(async () => {
      const removing = index.removeLibrary(erased, 'g1');
      // Ended before any step: a put under it is refused.
      await expect(index.put(erased, indexItem('late', axisVector(DIMENSIONS, 1)), 'g1')).rejects.toThrow();
      return removing;
    });
    expect(counts.file_excerpt).toBe(450);
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(await index.keywordSearch(erased, { text: 'walrus', limit: 10 })).toEqual([]);
    expect((await index.keywordSearch(kept, { text: 'walrus', limit: 10 })).length).toBe(1);
    await index.close();
  });
});
