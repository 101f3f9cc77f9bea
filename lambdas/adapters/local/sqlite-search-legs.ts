import type { PassageHit } from '../../core/model.js';
import type { KeywordQuery, VectorQuery } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';
import { type CommonTerms, DEFAULT_COMMON_TERMS, keywordLeg, LibraryCounts } from './sqlite-keyword-leg.js';
import { SqliteVectorLeg } from './sqlite-vector-leg.js';
import { DEFAULT_VECTOR_CACHE_MB, VectorCache, type VectorChanges } from './vector-cache.js';

/**
 * Where the SQLite search index's two legs run, with the libraries' vector
 * scans they keep: on the caller's thread (SqliteSearchLegs) or each in a
 * thread of its own (SearchThreads, search-thread.ts). The index tells them
 * of every committed write and of another process's, the same either way.
 */
export interface SearchLegs {
  /** `owner`: whose search it is (the tenant), for legs that share a thread fairly between them. */
  keyword(libraryId: number, query: KeywordQuery, owner?: string): PassageHit[] | Promise<PassageHit[]>;
  vector(libraryId: number, query: VectorQuery, owner?: string): PassageHit[] | Promise<PassageHit[]>;
  /** A committed write's vector changes. */
  changed(changes: VectorChanges): void;
  /** A library that left: its cached scan goes. */
  dropped(libraryId: number): void;
  /** Another process wrote the file: every cached scan may be stale. */
  clear(): void;
  close(): Promise<void>;
}

/** Both legs on the caller's thread, over its connection (and inside each search thread, over that thread's). */
export class SqliteSearchLegs implements SearchLegs {
  private readonly scans: VectorCache;
  private readonly vectorLeg: SqliteVectorLeg;
  private readonly counts: LibraryCounts;

  constructor(
    private readonly db: SqliteDatabase,
    dimensions: number,
    /** The memory the libraries' vector scans may hold (VectorCache); default DEFAULT_VECTOR_CACHE_MB. */
    vectorCacheBytes = DEFAULT_VECTOR_CACHE_MB * 2 ** 20,
    /** Which terms are too common to rank in a large library (sqlite-keyword-leg.ts); null: every term ranks. */
    private readonly commonTerms: CommonTerms | null = DEFAULT_COMMON_TERMS,
  ) {
    this.scans = new VectorCache(vectorCacheBytes);
    this.vectorLeg = new SqliteVectorLeg(db, dimensions, this.scans);
    this.counts = new LibraryCounts(db);
  }

  keyword(libraryId: number, query: KeywordQuery): PassageHit[] {
    return keywordLeg(this.db, libraryId, query, this.counts, this.commonTerms);
  }

  vector(libraryId: number, query: VectorQuery): PassageHit[] {
    return this.vectorLeg.search(libraryId, query);
  }

  changed(changes: VectorChanges): void {
    this.scans.apply(changes);
  }

  dropped(libraryId: number): void {
    this.scans.delete(libraryId);
  }

  clear(): void {
    this.scans.clear();
  }

  async close(): Promise<void> {}
}
