import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { FolderBlobStore } from '../../lambdas/adapters/local/folder-blob-store.js';
import { SearchThreads } from '../../lambdas/adapters/local/search-thread.js';
import { SqliteBucketRegistrations } from '../../lambdas/adapters/local/sqlite-bucket-registrations.js';
import { SqliteConversationStore } from '../../lambdas/adapters/local/sqlite-conversation-store.js';
import { SqliteDocumentStore } from '../../lambdas/adapters/local/sqlite-document-store.js';
import { SqlitePendingBucketDeletes } from '../../lambdas/adapters/local/sqlite-pending-bucket-deletes.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { SqliteTenantStore } from '../../lambdas/adapters/local/sqlite-tenant-store.js';
import { blobStoreContract } from './blob-store.contract.js';
import { bucketRegistrationsContract } from './bucket-registrations.contract.js';
import { conversationStoreContract } from './conversation-store.contract.js';
import { documentStoreContract } from './document-store.contract.js';
import { timestamp } from './fixtures.js';
import { pendingBucketDeletesContract } from './pending-bucket-deletes.contract.js';
import { searchIndexContract } from './search-index.contract.js';
import { tenantStoreContract } from './tenant-store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'library-contract-'));
let n = 0;
const freshDb = () => openDatabase(join(dir, `db-${++n}.sqlite`));

documentStoreContract('SQLite', async () => new SqliteDocumentStore(freshDb()));
conversationStoreContract('SQLite', async () => {
  const db = freshDb();
  return { conversations: new SqliteConversationStore(db), documents: new SqliteDocumentStore(db) };
});
tenantStoreContract('SQLite', async () => new SqliteTenantStore(freshDb()));
searchIndexContract(
  'SQLite (FTS5 + sqlite-vec)',
  async (dimensions) => new SqliteSearchIndex(freshDb(), dimensions, 'test'),
);
// As the server runs it: each leg in its own thread, on its own connection, kept current by the writes.
const threaded: SqliteSearchIndex[] = [];
afterAll(async () => {
  await Promise.all(threaded.map((index) => index.close()));
});
searchIndexContract('SQLite, each leg searched in its own thread', async (dimensions) => {
  const db = freshDb();
  const threads = await SearchThreads.start({ file: db.name, dimensions, vectorCacheBytes: 64 * 2 ** 20 });
  const index = new SqliteSearchIndex(db, dimensions, 'test', { legs: threads });
  threaded.push(index);
  return index;
});
blobStoreContract('folder', async () => new FolderBlobStore(join(dir, `blobs-${++n}`)));

describe('SqliteDocumentStore: a library made before generations', () => {
  it("reads as generation '' without writing (a read path), and is given one by a writer", async () => {
    const db = freshDb();
    const store = new SqliteDocumentStore(db);
    const ref = { tenantId: 'ten_old', endUserId: 'old' };
    await store.touchLibrary(ref, timestamp());
    db.prepare('UPDATE libraries SET generation = NULL').run();
    expect(await store.libraryGeneration(ref, { readOnly: true })).toBe('');
    expect(db.prepare('SELECT generation FROM libraries').pluck().get()).toBeNull();
    const given = await store.libraryGeneration(ref);
    expect(given).toBeTruthy();
    expect(await store.libraryGeneration(ref, { readOnly: true })).toBe(given);
  });
});
bucketRegistrationsContract('SQLite', async () => new SqliteBucketRegistrations(freshDb()));
pendingBucketDeletesContract('SQLite', async () => new SqlitePendingBucketDeletes(freshDb()));
