import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteDocumentStore } from '../../lambdas/adapters/local/sqlite-document-store.js';
import { SqliteIngestQueue } from '../../lambdas/adapters/local/sqlite-ingest-queue.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { newDocumentRecord } from '../../lambdas/core/document-record.js';
import { LibraryErasedError } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';

/**
 * The local stores' group writes (a batch's texts captured together:
 * core/capture-group.ts): one transaction for all, so all or none.
 */
const DIMENSIONS = 16;
const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };
const at = '2026-11-28T10:00:00.000000';

function fresh() {
  const db = openDatabase(':memory:');
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  /** Makes the next insert into `table` whose `column` is `value` fail, as a full disk or a bug would. */
  const failInsert = (table: string, column: string, value: string) =>
    db.exec(
      `CREATE TEMP TRIGGER fail_${table} BEFORE INSERT ON ${table} WHEN NEW.${column} = '${value}' BEGIN SELECT RAISE(ABORT, 'injected'); END`,
    );
  return { db, count, failInsert };
}

const textDoc = (text: string) =>
  newDocumentRecord(
    alice,
    {},
    {
      sha256: `sha-${text}`,
      sizeBytes: text.length,
      kind: 'text',
      contentType: 'text/plain',
      text,
      pageCount: null,
      hasBytes: false,
    },
    at,
  );

describe('SqliteSearchIndex.putMany', () => {
  it('writes every item, findable by words, and none when one of them fails', async () => {
    const { db, count, failInsert } = fresh();
    const index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const items = ['otter by the weir', 'kingfisher on the post', 'heron in the reeds'].map((text) =>
      indexItem(text, axisVector(DIMENSIONS, 1), { vectors: [] }),
    );
    await index.putMany(alice, items);
    for (const [i, word] of ['otter', 'kingfisher', 'heron'].entries())
      expect(
        (await index.keywordSearch(alice, { text: word, limit: 5 })).filter((h) => !h.viaContext).map((h) => h.itemId),
      ).toEqual([items[i]!.itemId]);

    failInsert('items', 'title', 'boom');
    const failing = [
      indexItem('swan on the river', axisVector(DIMENSIONS, 2), { vectors: [] }),
      indexItem('grebe diving', axisVector(DIMENSIONS, 3), { vectors: [], title: 'boom' }),
    ];
    await expect(index.putMany(alice, failing)).rejects.toThrow('injected');
    expect(count('items')).toBe(3);
    expect(await index.keywordSearch(alice, { text: 'swan', limit: 5 })).toEqual([]);
  });

  it('refuses an ended generation and writes nothing', async () => {
    const { db, count } = fresh();
    const index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const documents = new SqliteDocumentStore(db);
    const generation = await documents.touchLibrary(alice, at);
    await index.removeLibrary(alice, generation);
    const items = ['one', 'two'].map((text) => indexItem(text, axisVector(DIMENSIONS, 1), { vectors: [] }));
    await expect(index.putMany(alice, items, generation)).rejects.toBeInstanceOf(LibraryErasedError);
    expect(count('items')).toBe(0);
  });
});

describe('SqliteDocumentStore.claimMany', () => {
  it('claims the new documents, hands back the holder of a held identity, all in one library generation', async () => {
    const { db } = fresh();
    const documents = new SqliteDocumentStore(db);
    const generation = await documents.touchLibrary(alice, at);
    const held = textDoc('held');
    await documents.claim(held, generation);
    const claims = await documents.claimMany([textDoc('new one'), textDoc('held'), textDoc('new two')], generation);
    expect(claims.map((c) => c.claimed)).toEqual([true, false, true]);
    expect(claims[1]).toMatchObject({ claimed: false, existing: { id: held.id } });
    expect((await documents.listAll(alice)).length).toBe(3);
  });

  it('claims none when the generation ended, or when one of them fails', async () => {
    const { db, count, failInsert } = fresh();
    const documents = new SqliteDocumentStore(db);
    const ended = await documents.touchLibrary(alice, at);
    await documents.deleteLibrary(alice);
    await expect(documents.claimMany([textDoc('a'), textDoc('b')], ended)).rejects.toBeInstanceOf(LibraryErasedError);
    expect(count('documents')).toBe(0);

    const generation = await documents.touchLibrary(alice, at);
    failInsert('documents', 'sha256', 'sha-boom');
    await expect(documents.claimMany([textDoc('fine'), textDoc('boom')], generation)).rejects.toThrow('injected');
    expect(count('documents')).toBe(0);
  });
});

describe('SqliteIngestQueue.enqueueMany', () => {
  it('queues every job at once, and none when one fails', async () => {
    const { db, count, failInsert } = fresh();
    const queue = new SqliteIngestQueue(db);
    const job = (documentId: string) => ({ tenantId: 't', endUserId: 'alice', documentId, generation: 'g' });
    await queue.enqueueMany([job('file_1'), job('file_2')]);
    expect(count('ingest_jobs')).toBe(2);
    failInsert('ingest_jobs', 'document_id', 'file_boom');
    await expect(queue.enqueueMany([job('file_3'), job('file_boom')])).rejects.toThrow('injected');
    expect(count('ingest_jobs')).toBe(2);
  });
});
