import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../lambdas/adapters/local/database.js';
import { GroupedWrites } from '../../lambdas/adapters/local/grouped-writes.js';

/** Group commit on a real SQLite file: one transaction for the writes submitted together, and a failing write fails alone. */
let dir: string;
let db: SqliteDatabase;
let transactions: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'grouped-writes-'));
  db = openDatabase(join(dir, 'test.db'));
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  // Count the transactions the group opens (the connection's own method, wrapped).
  transactions = 0;
  const open = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    transactions += 1;
    return open(fn);
  }) as typeof db.transaction;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (text: string) => () =>
  Number(db.prepare('INSERT INTO notes (text) VALUES (?)').run(text).lastInsertRowid);
const texts = () => db.prepare('SELECT text FROM notes ORDER BY id').pluck().all();

describe('GroupedWrites', () => {
  it('runs the writes submitted together in one transaction, in order, each resolving with its value', async () => {
    const writes = new GroupedWrites(db);
    const ids = await Promise.all(['a', 'b', 'c', 'd'].map((t) => writes.submit(insert(t))));
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(texts()).toEqual(['a', 'b', 'c', 'd']);
    expect(transactions).toBe(1);
  });

  it('a write that throws fails alone: the others of its group still commit, and only theirs run their after-commit step', async () => {
    const writes = new GroupedWrites(db);
    const committed: string[] = [];
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'a', 'c'].map((t, i) => writes.submit(insert(t), () => committed.push(`${t}${i}`))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(texts()).toEqual(['a', 'b', 'c']);
    expect(committed).toEqual(['a0', 'b1', 'c3']);
  });

  it('a write resolves only after its after-commit step, and never before its transaction committed', async () => {
    const writes = new GroupedWrites(db);
    const seen: string[] = [];
    const done = writes.submit(insert('x'), () => seen.push(`committed, in transaction: ${db.inTransaction}`));
    expect(texts()).toEqual([]); // not yet: the group runs once the submitting code yields
    await done;
    expect(seen).toEqual(['committed, in transaction: false']);
    expect(texts()).toEqual(['x']);
  });

  it('when the transaction cannot begin (another connection holds the write lock), every write fails at once, none retried alone', async () => {
    const other = openDatabase(join(dir, 'test.db'));
    other.pragma('busy_timeout = 0');
    db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    const writes = new GroupedWrites(db);
    const outcomes = await Promise.allSettled(['a', 'b'].map((t) => writes.submit(insert(t))));
    other.exec('ROLLBACK');
    other.close();
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i);
    expect(transactions).toBe(1);
    expect(texts()).toEqual([]);
  });

  it('is not starved by a loop of awaits that never yields to the event loop', async () => {
    const writes = new GroupedWrites(db);
    let done = false;
    const spinner = (async () => {
      let spins = 0;
      while (!done && spins < 100_000) {
        await null;
        spins += 1;
      }
      return spins;
    })();
    await writes.submit(insert('x'));
    done = true;
    expect(await spinner).toBeLessThan(100_000);
    expect(texts()).toEqual(['x']);
  });

  it('caps a group: more writes than the cap take more transactions, all landing', async () => {
    const writes = new GroupedWrites(db, 3);
    await Promise.all(Array.from({ length: 7 }, (_, i) => writes.submit(insert(`n${i}`))));
    expect(texts()).toHaveLength(7);
    expect(transactions).toBe(3);
  });
});
