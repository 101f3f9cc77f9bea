/**
 * The search thread: the SQLite search index's two legs (keyword and
 * vector) run here, on a connection of their own, so a search over a large
 * library never holds up the server's other requests (captures, greps,
 * health). It only reads (query_only); the server's thread writes and sends
 * each committed write's vector changes before any search that follows it
 * (search-thread.ts), which keeps the cached scans current.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database.js';
import type { FromSearchThread, SearchThreadData, ToSearchThread } from './search-thread-protocol.js';
import { keywordLeg } from './sqlite-keyword-leg.js';
import { SqliteVectorLeg } from './sqlite-vector-leg.js';
import { VectorCache } from './vector-cache.js';

const data = workerData as SearchThreadData;
const port = parentPort!;
const db = openDatabase(data.file);
db.pragma('query_only = ON');
const scans = new VectorCache(data.vectorCacheBytes);
// The server's thread checks the embedder record and whether another process wrote (and says 'clear').
const vectorLeg = new SqliteVectorLeg(db, data.dimensions, scans, () => 0);
// Each leg reads one snapshot: a write committing between its statements is not half seen.
const inSnapshot = <T>(run: () => T): T => db.transaction(run).deferred();

const send = (message: FromSearchThread) => port.postMessage(message);

port.on('message', (message: ToSearchThread) => {
  switch (message.type) {
    case 'changes':
      scans.apply(message.changes);
      return;
    case 'drop':
      scans.delete(message.libraryId);
      return;
    case 'clear':
      scans.clear();
      return;
    default: {
      const { id, libraryId } = message;
      try {
        const hits =
          message.type === 'keyword'
            ? inSnapshot(() => keywordLeg(db, libraryId, message.query))
            : inSnapshot(() => vectorLeg.search(libraryId, message.query));
        send({ type: 'hits', id, hits });
      } catch (error) {
        const { name, message: text } = error instanceof Error ? error : new Error(String(error));
        send({ type: 'failed', id, name, message: text });
      }
    }
  }
});
send({ type: 'ready' });
