import { randomUUID } from 'node:crypto';
import { LibraryErasedError } from '../../core/errors.js';
import type { Filter } from '../../core/filter.js';
import type { DocumentChanges, DocumentRecord, EndUserRecord, LibraryRef } from '../../core/model.js';
import type { ClaimResult, DocumentStore, ExtractionResult, NewestFirstKey } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';
import {
  compileFilter,
  deleteMetadataRows,
  metadataOf,
  metadataTableSchema,
  writeMetadataRows,
} from './sqlite-filter.js';

/** One row per metadata scalar of each document (sqlite-filter.ts): filters read it through indexes. */
const METADATA_TABLE = 'document_metadata';

/** The shared library is stored under this end-user id: real ids are at least 1 character. */
const SHARED = '';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS libraries (
  tenant_id TEXT NOT NULL,
  end_user_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_active_at TEXT NOT NULL,
  generation TEXT,
  PRIMARY KEY (tenant_id, end_user_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  end_user_id TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  title TEXT NOT NULL,
  filename TEXT,
  content_type TEXT NOT NULL,
  source_ref TEXT,
  size_bytes INTEGER NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  storage TEXT NOT NULL,
  line_count INTEGER NOT NULL,
  page_count INTEGER,
  blob_key TEXT,
  passage_count INTEGER,
  passages_embedded INTEGER NOT NULL DEFAULT 0,
  failure_reason TEXT,
  replacing INTEGER NOT NULL DEFAULT 0,
  metadata TEXT,
  UNIQUE (tenant_id, end_user_id, sha256),
  FOREIGN KEY (tenant_id, end_user_id) REFERENCES libraries(tenant_id, end_user_id)
);
CREATE INDEX IF NOT EXISTS documents_newest ON documents(tenant_id, end_user_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS documents_source_ref ON documents(tenant_id, end_user_id, source_ref, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS documents_status ON documents(status, created_at);
${metadataTableSchema(METADATA_TABLE)}
`;

interface DocumentRow {
  id: string;
  tenant_id: string;
  end_user_id: string;
  sha256: string;
  title: string;
  filename: string | null;
  content_type: string;
  source_ref: string | null;
  size_bytes: number;
  kind: DocumentRecord['kind'];
  status: DocumentRecord['status'];
  created_at: string;
  storage: DocumentRecord['storage'];
  line_count: number;
  page_count: number | null;
  blob_key: string | null;
  passage_count: number | null;
  passages_embedded: number;
  failure_reason: string | null;
  replacing: number;
  metadata: string | null;
  rowid?: number;
}

const toRecord = (r: DocumentRow): DocumentRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  endUserId: r.end_user_id === SHARED ? null : r.end_user_id,
  sha256: r.sha256,
  title: r.title,
  filename: r.filename,
  contentType: r.content_type,
  sourceRef: r.source_ref,
  sizeBytes: r.size_bytes,
  kind: r.kind,
  status: r.status,
  createdAt: r.created_at,
  storage: r.storage,
  lineCount: r.line_count,
  pageCount: r.page_count,
  blobKey: r.blob_key,
  passageCount: r.passage_count,
  passagesEmbedded: r.passages_embedded,
  failureReason: r.failure_reason,
  metadata: metadataOf(r.metadata),
  ...(r.replacing ? { replacing: true } : {}),
});

/** Columns added since the first data folders; a folder made before them gets them at start-up. */
const ADDED_COLUMNS: Array<[string, string]> = [
  ['passage_count', 'INTEGER'],
  ['passages_embedded', 'INTEGER NOT NULL DEFAULT 0'],
  ['failure_reason', 'TEXT'],
  ['replacing', 'INTEGER NOT NULL DEFAULT 0'],
  ['metadata', 'TEXT'],
];

const lib = (ref: LibraryRef) => [ref.tenantId, ref.endUserId ?? SHARED] as const;
/** A library's scope in the metadata table: tenant and end user in one value (a tenant id holds no NUL). */
const scopeOf = (ref: LibraryRef) => `${ref.tenantId}\u0000${ref.endUserId ?? SHARED}`;
const isEmpty = (metadata: object) => Object.keys(metadata).length === 0;

export class SqliteDocumentStore implements DocumentStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
    const columns = new Set(
      (db.prepare('PRAGMA table_info(documents)').all() as Array<{ name: string }>).map((c) => c.name),
    );
    for (const [name, type] of ADDED_COLUMNS)
      if (!columns.has(name)) db.exec(`ALTER TABLE documents ADD COLUMN ${name} ${type}`);
    const libraryColumns = new Set(
      (db.prepare('PRAGMA table_info(libraries)').all() as Array<{ name: string }>).map((c) => c.name),
    );
    // Libraries made before generations get one on their next touch (see libraryGeneration).
    if (!libraryColumns.has('generation')) db.exec('ALTER TABLE libraries ADD COLUMN generation TEXT');
    // Documents made ready before passage counts were kept: their counts are unknown, so they read as complete.
    db.exec(`UPDATE documents SET passage_count = passages_embedded WHERE passage_count IS NULL AND status = 'ready'`);
  }

  /** The blob keys the records name (any library), read at once: the local sweep of files no record names. */
  blobKeys(): Set<string> {
    return new Set(
      this.db.prepare('SELECT blob_key FROM documents WHERE blob_key IS NOT NULL').pluck().all() as string[],
    );
  }

  async touchLibrary(ref: LibraryRef, at: string): Promise<string> {
    return this.db
      .prepare(
        `INSERT INTO libraries (tenant_id, end_user_id, created_at, last_active_at, generation) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, end_user_id) DO UPDATE SET last_active_at = max(last_active_at, excluded.last_active_at),
           generation = coalesce(libraries.generation, excluded.generation)
         RETURNING generation`,
      )
      .pluck()
      .get(...lib(ref), at, at, randomUUID()) as string;
  }

  async libraryGeneration(ref: LibraryRef, options: { readOnly?: boolean } = {}): Promise<string | null> {
    const row = this.db
      .prepare('SELECT generation FROM libraries WHERE tenant_id = ? AND end_user_id = ?')
      .get(...lib(ref)) as { generation: string | null } | undefined;
    if (!row) return null;
    if (row.generation !== null) return row.generation;
    if (options.readOnly) return '';
    // A library made before generations: it gets one now.
    return this.db
      .prepare(
        'UPDATE libraries SET generation = coalesce(generation, ?) WHERE tenant_id = ? AND end_user_id = ? RETURNING generation',
      )
      .pluck()
      .get(randomUUID(), ...lib(ref)) as string | null;
  }

  async libraryExists(ref: LibraryRef): Promise<boolean> {
    return !!this.db.prepare('SELECT 1 FROM libraries WHERE tenant_id = ? AND end_user_id = ?').get(...lib(ref));
  }

  async findBySha256(ref: LibraryRef, sha256: string): Promise<DocumentRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM documents WHERE tenant_id = ? AND end_user_id = ? AND sha256 = ?')
      .get(...lib(ref), sha256) as DocumentRow | undefined;
    return row ? toRecord(row) : null;
  }

  async claim(doc: DocumentRecord, generation?: string): Promise<ClaimResult> {
    return this.db
      .transaction(() => {
        this.requireGeneration(doc, generation);
        return this.claimOne(doc);
      })
      .immediate();
  }

  /** One transaction for all: a group's claims cost one commit. */
  async claimMany(docs: readonly DocumentRecord[], generation: string): Promise<ClaimResult[]> {
    return this.db
      .transaction(() => {
        for (const doc of docs) this.requireGeneration(doc, generation);
        return docs.map((doc) => this.claimOne(doc));
      })
      .immediate();
  }

  /** Inside a claim's transaction: refuses a generation that is no longer its library's. */
  private requireGeneration(doc: DocumentRecord, generation: string | undefined): void {
    if (generation === undefined) return;
    const current = this.db
      .prepare('SELECT generation FROM libraries WHERE tenant_id = ? AND end_user_id = ?')
      .pluck()
      .get(doc.tenantId, doc.endUserId ?? SHARED) as string | null | undefined;
    if (current !== generation) throw new LibraryErasedError();
  }

  private claimOne(doc: DocumentRecord): ClaimResult {
    const inserted = this.db
      .prepare(
        `INSERT INTO documents (id, tenant_id, end_user_id, sha256, title, filename, content_type, source_ref,
           size_bytes, kind, status, created_at, storage, line_count, page_count, blob_key, passage_count,
           passages_embedded, failure_reason, replacing, metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, end_user_id, sha256) DO NOTHING`,
      )
      .run(
        doc.id,
        doc.tenantId,
        doc.endUserId ?? SHARED,
        doc.sha256,
        doc.title,
        doc.filename,
        doc.contentType,
        doc.sourceRef,
        doc.sizeBytes,
        doc.kind,
        doc.status,
        doc.createdAt,
        doc.storage,
        doc.lineCount,
        doc.pageCount,
        doc.blobKey,
        doc.passageCount,
        doc.passagesEmbedded,
        doc.failureReason,
        doc.replacing ? 1 : 0,
        isEmpty(doc.metadata) ? null : JSON.stringify(doc.metadata),
      );
    if (inserted.changes === 1) {
      writeMetadataRows(this.db, METADATA_TABLE, Number(inserted.lastInsertRowid), scopeOf(doc), doc.metadata);
      return { claimed: true as const };
    }
    const existing = this.db
      .prepare('SELECT * FROM documents WHERE tenant_id = ? AND end_user_id = ? AND sha256 = ?')
      .get(doc.tenantId, doc.endUserId ?? SHARED, doc.sha256) as DocumentRow;
    return { claimed: false as const, existing: toRecord(existing) };
  }

  async recordExtraction(ref: LibraryRef, id: string, result: ExtractionResult): Promise<void> {
    this.db
      .prepare(
        `UPDATE documents SET kind = ?, content_type = ?, line_count = ?, page_count = ?, passage_count = ?
         WHERE id = ? AND tenant_id = ? AND end_user_id = ?`,
      )
      .run(result.kind, result.contentType, result.lineCount, result.pageCount, result.passageCount, id, ...lib(ref));
  }

  async recordEmbedded(ref: LibraryRef, id: string, passagesEmbedded: number): Promise<void> {
    this.db
      .prepare(
        `UPDATE documents SET passages_embedded = min(coalesce(passage_count, 0), passages_embedded + ?)
         WHERE id = ? AND tenant_id = ? AND end_user_id = ?`,
      )
      .run(passagesEmbedded, id, ...lib(ref));
  }

  async settle(
    ref: LibraryRef,
    id: string,
    outcome: { status: 'ready' } | { status: 'failed'; reason: string },
  ): Promise<void> {
    if (outcome.status === 'ready') {
      this.db
        .prepare(
          `UPDATE documents SET status = 'ready', passages_embedded = coalesce(passage_count, 0), failure_reason = NULL
           WHERE id = ? AND tenant_id = ? AND end_user_id = ? AND status = 'processing'`,
        )
        .run(id, ...lib(ref));
    } else {
      this.db
        .prepare(
          `UPDATE documents SET status = 'failed', failure_reason = ?, replacing = 0 WHERE id = ? AND tenant_id = ? AND end_user_id = ? AND status = 'processing'`,
        )
        .run(outcome.reason, id, ...lib(ref));
    }
  }

  async get(ref: LibraryRef, id: string): Promise<DocumentRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM documents WHERE id = ? AND tenant_id = ? AND end_user_id = ?')
      .get(id, ...lib(ref)) as DocumentRow | undefined;
    return row ? toRecord(row) : null;
  }

  async list(
    ref: LibraryRef,
    options: { limit: number; after?: NewestFirstKey; sourceRef?: string; includeReplacing?: boolean; filter?: Filter },
  ): Promise<DocumentRecord[]> {
    const where = ['tenant_id = ?', 'end_user_id = ?'];
    const params: unknown[] = [...lib(ref)];
    if (options.filter) {
      const compiled = compileFilter(options.filter, {
        metadataTable: METADATA_TABLE,
        owner: 'documents.rowid',
        scope: scopeOf(ref),
        fields: {
          source_ref: 'source_ref',
          title: 'title',
          content_type: 'content_type',
          created_at: 'created_at',
          content_date: 'created_at',
        },
        kinds: ['kind', `CASE kind WHEN 'image' THEN 'image' ELSE 'file_excerpt' END`],
      });
      where.push(compiled.sql);
      params.push(...compiled.params);
    }
    if (!options.includeReplacing) where.push('replacing = 0');
    if (options.sourceRef !== undefined) {
      where.push('source_ref = ?');
      params.push(options.sourceRef);
    }
    if (options.after) {
      where.push('(created_at, id) < (?, ?)');
      params.push(options.after.createdAt, options.after.id);
    }
    const rows = this.db
      .prepare(`SELECT * FROM documents WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`)
      .all(...params, options.limit) as DocumentRow[];
    return rows.map(toRecord);
  }

  async update(ref: LibraryRef, id: string, changes: DocumentChanges): Promise<DocumentRecord | null> {
    return this.db
      .transaction(() => {
        const row = this.db
          .prepare('SELECT rowid, * FROM documents WHERE id = ? AND tenant_id = ? AND end_user_id = ?')
          .get(id, ...lib(ref)) as (DocumentRow & { rowid: number }) | undefined;
        if (!row) return null;
        const current = toRecord(row);
        const next = {
          title: changes.title ?? current.title,
          sourceRef: changes.sourceRef === undefined ? current.sourceRef : changes.sourceRef,
          metadata: changes.metadata ?? current.metadata,
        };
        this.db
          .prepare('UPDATE documents SET title = ?, source_ref = ?, metadata = ? WHERE rowid = ?')
          .run(next.title, next.sourceRef, isEmpty(next.metadata) ? null : JSON.stringify(next.metadata), row.rowid);
        if (changes.metadata) writeMetadataRows(this.db, METADATA_TABLE, row.rowid, scopeOf(ref), next.metadata);
        return { ...current, ...next };
      })
      .immediate();
  }

  async completeReplacement(ref: LibraryRef, id: string, replaced: readonly string[]): Promise<boolean> {
    // One transaction: a list sees the old records or the new one, never neither or both.
    return this.db
      .transaction(() => {
        for (const old of replaced) if (old !== id) this.deleteRow(ref, old);
        return (
          this.db
            .prepare('UPDATE documents SET replacing = 0 WHERE id = ? AND tenant_id = ? AND end_user_id = ?')
            .run(id, ...lib(ref)).changes === 1
        );
      })
      .immediate();
  }

  async listAll(ref: LibraryRef): Promise<DocumentRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM documents WHERE tenant_id = ? AND end_user_id = ?')
      .all(...lib(ref)) as DocumentRow[];
    return rows.map(toRecord);
  }

  async delete(ref: LibraryRef, id: string): Promise<void> {
    this.db.transaction(() => this.deleteRow(ref, id)).immediate();
  }

  /** Deletes a document's row and its metadata rows; call inside a transaction. */
  private deleteRow(ref: LibraryRef, id: string) {
    const rowid = this.db
      .prepare('DELETE FROM documents WHERE id = ? AND tenant_id = ? AND end_user_id = ? RETURNING rowid')
      .pluck()
      .get(id, ...lib(ref)) as number | undefined;
    if (rowid !== undefined) deleteMetadataRows(this.db, METADATA_TABLE, rowid);
  }

  async deleteLibrary(ref: LibraryRef): Promise<{ generation: string | null; documents: DocumentRecord[] }> {
    // One transaction: the generation ends with the last of its records.
    return this.db
      .transaction(() => {
        const library = this.db
          .prepare('SELECT generation FROM libraries WHERE tenant_id = ? AND end_user_id = ?')
          .get(...lib(ref)) as { generation: string | null } | undefined;
        const rows = this.db
          .prepare('SELECT * FROM documents WHERE tenant_id = ? AND end_user_id = ?')
          .all(...lib(ref)) as DocumentRow[];
        this.db.prepare('DELETE FROM documents WHERE tenant_id = ? AND end_user_id = ?').run(...lib(ref));
        this.db.prepare(`DELETE FROM ${METADATA_TABLE} WHERE scope = ?`).run(scopeOf(ref));
        this.db.prepare('DELETE FROM libraries WHERE tenant_id = ? AND end_user_id = ?').run(...lib(ref));
        return { generation: library ? (library.generation ?? '') : null, documents: rows.map(toRecord) };
      })
      .immediate();
  }

  async listStaleProcessing(olderThan: string): Promise<DocumentRecord[]> {
    const rows = this.db
      .prepare(`SELECT * FROM documents WHERE status = 'processing' AND created_at < ?`)
      .all(olderThan) as DocumentRow[];
    return rows.map(toRecord);
  }

  async listEndUsers(tenantId: string, options: { limit: number; after?: string }): Promise<EndUserRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT l.end_user_id AS id, l.created_at, l.last_active_at,
           (SELECT count(*) FROM documents d WHERE d.tenant_id = l.tenant_id AND d.end_user_id = l.end_user_id) AS document_count
         FROM libraries l
         WHERE l.tenant_id = ? AND l.end_user_id <> '' AND l.end_user_id > ?
         ORDER BY l.end_user_id LIMIT ?`,
      )
      .all(tenantId, options.after ?? SHARED, options.limit) as Array<{
      id: string;
      created_at: string;
      last_active_at: string;
      document_count: number;
    }>;
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at,
      lastActiveAt: r.last_active_at,
      documentCount: r.document_count,
    }));
  }
}
