import { createHash } from 'node:crypto';
import type { ReindexPassage, VectorReindex } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';
import { embedderValue, parseEmbedder, readEmbedderRecord } from './embedder-record.js';
import { REINDEX_TABLE, vectorTable } from './sqlite-index-schema.js';
import { countVectorWrite } from './vector-writes.js';

const textHash = (text: string) => createHash('sha256').update(text).digest('base64');
const vectorBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** A passage that has a vector now and no current one from the target: none yet, or one of an older text. */
const NEEDS_VECTOR = `EXISTS (SELECT 1 FROM passage_vectors v WHERE v.rowid = p.rowid)
  AND NOT EXISTS (SELECT 1 FROM reindex_vectors r WHERE r.rowid = p.rowid AND r.text_hash = reindex_text_hash(p.text))`;

/**
 * The reindex on the local index (SqliteSearchIndex's tables). New vectors
 * go to reindex_vectors with the hash of the text they were made from, so
 * one made before its passage changed is made again; search keeps reading
 * passage_vectors, the old embedder's, until finish() swaps the tables in
 * one transaction (the table checks its vectors' length, so it is made anew
 * for the new dimensions) and records the new embedder. A server still running with
 * the old embedder then refuses vector reads and writes until restarted
 * (SqliteSearchIndex.assertOwnVectors); while the reindex runs it serves on.
 */
export class SqliteVectorReindex implements VectorReindex {
  private target: string | null = null;

  constructor(private readonly db: SqliteDatabase) {
    db.function('reindex_text_hash', { deterministic: true }, (text: unknown) => textHash(String(text)));
  }

  async begin(target: { name: string; dimensions: number }) {
    const wanted = embedderValue(target);
    const record = readEmbedderRecord(this.db);
    if (!record.current) throw new Error('this data folder holds no library index yet: nothing to reindex');
    this.db.exec(REINDEX_TABLE); // a folder last served by a version without it
    this.target = wanted;
    const resumed = record.reindexTo === wanted;
    this.db
      .transaction(() => {
        // A reindex to another embedder, or back to the current one, drops what an unfinished one made.
        if (!resumed) this.db.prepare('DELETE FROM reindex_vectors').run();
        const setTarget =
          record.current === wanted
            ? `DELETE FROM index_meta WHERE key = 'reindex_to'`
            : `INSERT OR REPLACE INTO index_meta (key, value) VALUES ('reindex_to', ?)`;
        this.db.prepare(setTarget).run(...(record.current === wanted ? [] : [wanted]));
      })
      .immediate();
    // One pass over the passages for both counts (the text hash is the costly part).
    const { total, missing } = this.db
      .prepare(
        `SELECT count(*) AS total, coalesce(sum(${NEEDS_VECTOR}), 0) AS missing FROM passages p WHERE EXISTS (SELECT 1 FROM passage_vectors v WHERE v.rowid = p.rowid)`,
      )
      .get() as { total: number; missing: number };
    return { current: record.current === wanted, resumed, total, done: total - missing, from: record.current };
  }

  async pending(after: number, limit: number): Promise<ReindexPassage[]> {
    return this.db
      .prepare(
        `SELECT p.rowid AS id, p.text FROM passages p WHERE p.rowid > ? AND ${NEEDS_VECTOR} ORDER BY p.rowid LIMIT ?`,
      )
      .all(after, limit) as ReindexPassage[];
  }

  async keep(vectors: ReadonlyArray<ReindexPassage & { vector: Float32Array }>): Promise<void> {
    const dimensions = this.dimensions();
    this.db
      .transaction(() => {
        const old = this.db.prepare('SELECT library_id, kind FROM passage_vectors WHERE rowid = ?');
        const put = this.db.prepare(
          'INSERT OR REPLACE INTO reindex_vectors (rowid, library_id, kind, text_hash, embedding) VALUES (?, ?, ?, ?, ?)',
        );
        for (const { id, text, vector } of vectors) {
          if (vector.length !== dimensions)
            throw new Error(`a ${vector.length}-dimension vector for a ${dimensions}-dimension reindex`);
          const row = old.get(BigInt(id)) as { library_id: number; kind: string } | undefined;
          if (row) put.run(id, row.library_id, row.kind, textHash(text), vectorBlob(vector)); // removed meanwhile: nothing to keep
        }
      })
      .immediate();
  }

  async finish(): Promise<boolean> {
    const dimensions = this.dimensions();
    return this.db
      .transaction(() => {
        if (this.db.prepare(`SELECT 1 FROM passages p WHERE ${NEEDS_VECTOR} LIMIT 1`).get()) return false;
        // Only vectors of passages that still have one: a passage removed meanwhile took its old vector with it.
        this.db.exec('DELETE FROM reindex_vectors WHERE rowid NOT IN (SELECT rowid FROM passage_vectors)');
        this.db.exec('DROP TABLE passage_vectors');
        this.db.exec(vectorTable(dimensions));
        this.db.exec(
          'INSERT INTO passage_vectors (rowid, library_id, kind, embedding) SELECT rowid, library_id, kind, embedding FROM reindex_vectors',
        );
        this.db.exec('DELETE FROM reindex_vectors');
        countVectorWrite(this.db);
        this.db.prepare(`UPDATE index_meta SET value = ? WHERE key = 'embedder'`).run(this.target);
        this.db.prepare(`DELETE FROM index_meta WHERE key = 'reindex_to'`).run();
        return true;
      })
      .immediate();
  }

  private dimensions(): number {
    if (!this.target) throw new Error('begin() first');
    return parseEmbedder(this.target).dimensions;
  }
}
