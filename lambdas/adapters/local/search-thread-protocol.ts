import type { PassageHit } from '../../core/model.js';
import type { KeywordQuery, VectorQuery } from '../../core/ports.js';
import type { VectorChanges } from './vector-cache.js';

/** What the search thread (search-thread-worker.ts) is started with. */
export interface SearchThreadData {
  /** The data folder's SQLite file, opened again by the thread to read. */
  file: string;
  dimensions: number;
  /** The memory its libraries' vector scans may hold (VectorCache; SqliteSearchLegs' default when absent). */
  vectorCacheBytes?: number;
}

/** To the thread, handled in the order sent: a search sent after a write's changes sees them. */
export type ToSearchThread =
  | { type: 'keyword'; id: number; libraryId: number; query: KeywordQuery }
  | { type: 'vector'; id: number; libraryId: number; query: VectorQuery }
  /** A committed write's vector changes, for the libraries the thread has cached. */
  | { type: 'changes'; changes: VectorChanges }
  /** A library that left: its cached scan goes. */
  | { type: 'drop'; libraryId: number }
  /** Another process wrote the file (data_version moved): every cached scan goes. */
  | { type: 'clear' };

export type FromSearchThread =
  | { type: 'ready' }
  | { type: 'hits'; id: number; hits: PassageHit[] }
  | { type: 'failed'; id: number; name: string; message: string };
