/**
 * A segment-merge thread (segment-merges.ts): merges each named full-text
 * index's segments into one on a connection of its own, a short write
 * transaction at a time, then exits. Readers never wait for it (WAL); a
 * writer waits at most one step. A busy or failing file ends the thread: the
 * next pause in writes starts another.
 */
import { workerData } from 'node:worker_threads';
import { openDatabase } from './database.js';
import type { SegmentMergeData } from './segment-merges.js';

const data = workerData as SegmentMergeData;
const db = openDatabase(data.file);
try {
  for (const table of data.tables) {
    // FTS5's incremental merge: a negative step first puts every segment on one level, so the steps that follow
    // merge them all (as 'optimize' would, in one long transaction); it is done once a step changes nothing.
    const merge = db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`);
    const changes = db.prepare('SELECT total_changes()').pluck();
    let pages = -data.pagesPerStep;
    for (;;) {
      const before = changes.get() as number;
      db.transaction(() => merge.run(pages)).immediate();
      pages = data.pagesPerStep;
      if ((changes.get() as number) - before < 2) break;
    }
  }
  // A scrub: the WAL's old page images hold the deleted text; written back and cut to nothing.
  if (data.truncateLog) db.pragma('wal_checkpoint(TRUNCATE)');
} finally {
  db.close();
}
