import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import type { IndexItem, LibraryRef } from '../../lambdas/core/model.js';

/**
 * Documents' texts enter the trigram index a group at a time, after their
 * puts commit (sqlite-trigram-backlog.ts). Grep must not see the difference:
 * a document is a grep candidate from its put on, while it waits, after a
 * crash, and never once removed.
 */
const ref: LibraryRef = { tenantId: 'ten_trigrams', endUserId: null };
const GENERATION = 'gen-1';
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function databaseFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'trigram-backlog-'));
  folders.push(folder);
  return join(folder, 'library.db');
}

let sequence = 0;
function document(text: string): IndexItem {
  sequence += 1;
  return {
    itemId: `file_${String(sequence).padStart(26, '0')}`,
    kind: 'file_excerpt',
    title: `doc ${sequence}`,
    sourceRef: null,
    contentDate: new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString().replace('Z', '000'),
    text,
    passages: [],
    vectors: [],
  };
}

async function grep(index: SqliteSearchIndex, pattern: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const candidate of index.grepCandidates(ref, { pattern, caseSensitive: false, generation: GENERATION }))
    if (candidate.text.toLowerCase().includes(pattern.toLowerCase())) ids.push(candidate.itemId);
  return ids;
}

const waiting = (db: SqliteDatabase) => db.prepare('SELECT count(*) FROM items_trigram_pending').pluck().get();
const indexed = (db: SqliteDatabase, pattern: string) =>
  db.prepare('SELECT count(*) FROM items_trigram WHERE items_trigram MATCH ?').pluck().get(`"${pattern}"`);

describe('the trigram backlog', () => {
  it('finds a document by grep at once, while its text waits, and from the index once it has entered it', async () => {
    const db = openDatabase(databaseFile());
    const index = new SqliteSearchIndex(db, 4, 'none');
    const doc = document('The boiler code is QX-4471, written on the side panel.');
    await index.put(ref, doc, GENERATION);
    // Nothing has run since the put: the text waits, and grep reads it all the same.
    expect(waiting(db)).toBe(1);
    expect(indexed(db, 'qx-4471')).toBe(0);
    expect(await grep(index, 'qx-4471')).toEqual([doc.itemId]);

    await sleep(100);
    expect(waiting(db)).toBe(0);
    expect(indexed(db, 'qx-4471')).toBe(1);
    expect(await grep(index, 'qx-4471')).toEqual([doc.itemId]);
    expect(await grep(index, 'not in any text')).toEqual([]);
    await index.close();
    db.close();
  });

  it('indexes the texts a crash left waiting at the next start, and grep finds them throughout', async () => {
    const file = databaseFile();
    const first = openDatabase(file);
    const before = new SqliteSearchIndex(first, 4, 'none');
    const docs = [document('Locker combination 2931.'), document('Locker key is with reception.')];
    for (const doc of docs) await before.put(ref, doc, GENERATION);
    // Stopped before the backlog's turn came: the rowids are in the file, not in the index.
    await before.close();
    first.close();

    const db = openDatabase(file);
    const index = new SqliteSearchIndex(db, 4, 'none');
    expect(waiting(db)).toBe(2);
    expect((await grep(index, 'locker')).sort()).toEqual(docs.map((d) => d.itemId).sort());
    await sleep(100);
    expect(waiting(db)).toBe(0);
    expect(indexed(db, 'locker')).toBe(2);
    expect((await grep(index, 'locker')).sort()).toEqual(docs.map((d) => d.itemId).sort());
    await index.close();
    db.close();
  });

  it('never indexes a document removed while its text waited, and removes an indexed one from the index', async () => {
    const db = openDatabase(databaseFile());
    const index = new SqliteSearchIndex(db, 4, 'none');
    const waitingDoc = document('Gate code 5512 for the allotment.');
    await index.put(ref, waitingDoc, GENERATION);
    await index.remove(ref, waitingDoc.itemId);
    expect(waiting(db)).toBe(0);

    const indexedDoc = document('Gate code 7730 for the garage.');
    await index.put(ref, indexedDoc, GENERATION);
    await sleep(100);
    expect(indexed(db, '7730')).toBe(1);
    await index.remove(ref, indexedDoc.itemId);

    await sleep(100);
    expect(indexed(db, '5512')).toBe(0);
    expect(indexed(db, '7730')).toBe(0);
    expect(await grep(index, 'gate code')).toEqual([]);
    await index.close();
    db.close();
  });

  it('indexes many waiting texts a group at a time as puts go on, without waiting for a free turn', async () => {
    const db = openDatabase(databaseFile());
    const index = new SqliteSearchIndex(db, 4, 'none');
    // Puts one after another with no turn of the event loop between them: the timer never fires.
    const puts: Promise<void>[] = [];
    for (let i = 0; i < 1_500; i += 1) puts.push(index.put(ref, document(`note ${i} with marker zq${i}x`), GENERATION));
    await Promise.all(puts);
    expect(waiting(db) as number).toBeLessThanOrEqual(1_025);
    expect(indexed(db, 'zq0x')).toBe(1);
    expect(await grep(index, 'zq1499x')).toHaveLength(1);
    await index.close();
    db.close();
  });

  it('indexes a long text with its document: it never waits, and a group never holds the thread longer than one text did', async () => {
    const db = openDatabase(databaseFile());
    const index = new SqliteSearchIndex(db, 4, 'none');
    const long = document(`${'the meter reading\n'.repeat(2_000)}serial MX-88213`);
    await index.put(ref, long, GENERATION);
    expect(waiting(db)).toBe(0);
    expect(indexed(db, 'mx-88213')).toBe(1);
    await index.close();
    db.close();
  });

  it('puts every waiting text into the index before a scrub optimizes it', async () => {
    const db = openDatabase(databaseFile());
    const index = new SqliteSearchIndex(db, 4, 'none');
    await index.put(ref, document('Wifi password is hunter2-garden.'), GENERATION);
    await index.scrub();
    expect(waiting(db)).toBe(0);
    expect(indexed(db, 'hunter2-garden')).toBe(1);
    await index.close();
    db.close();
  });
});
