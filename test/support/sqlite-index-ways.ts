import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SearchThreads } from '../../lambdas/adapters/local/search-thread.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';

/** The test index's vector size. */
export const DIMENSIONS = 16;

/** A SQLite search index over a file, its legs on the caller's thread or in search threads (each with its own connection). */
export const SQLITE_INDEX_WAYS = {
  'on the caller thread': async (file: string) => new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test'),
  'in search threads': async (file: string) =>
    new SqliteSearchIndex(openDatabase(file), DIMENSIONS, 'test', {
      legs: await SearchThreads.start({ file, dimensions: DIMENSIONS }),
    }),
};
