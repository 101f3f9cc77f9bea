/**
 * A search thread: one of the SQLite search index's two legs (keyword or
 * vector; SearchThreads starts one thread for each) runs here, on a connection of its own, so a search over a large
 * library never holds up the server's other requests (captures, greps,
 * health). It only reads (query_only); the server's thread writes and sends
 * each committed write's vector changes before any search that follows it
 * (search-thread.ts), which keeps the cached scans current.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database.js';
import type { FromSearchThread, SearchThreadData, ToSearchThread } from './search-thread-protocol.js';
import { SqliteSearchLegs } from './sqlite-search-legs.js';

const data = workerData as SearchThreadData;
const port = parentPort!;
const db = openDatabase(data.file);
db.pragma('query_only = ON');
// The index on the server's thread checks the embedder record and whether another process wrote (and says 'clear').
const legs = new SqliteSearchLegs(db, data.dimensions, data.vectorCacheBytes);
// Each leg reads one snapshot: a write committing between its statements is not half seen.
const inSnapshot = <T>(run: () => T): T => db.transaction(run).deferred();

const send = (message: FromSearchThread) => port.postMessage(message);

port.on('message', (message: ToSearchThread) => {
  switch (message.type) {
    case 'changes':
      legs.changed(message.changes);
      return;
    case 'drop':
      legs.dropped(message.libraryId);
      return;
    case 'clear':
      legs.clear();
      return;
    default: {
      const { id, libraryId } = message;
      try {
        const hits = inSnapshot(() =>
          message.type === 'keyword' ? legs.keyword(libraryId, message.query) : legs.vector(libraryId, message.query),
        );
        send({ type: 'hits', id, hits });
      } catch (error) {
        const { name, message: text } = error instanceof Error ? error : new Error(String(error));
        send({ type: 'failed', id, name, message: text });
      }
    }
  }
});
send({ type: 'ready' });
