import type { ItemKind } from '../../core/model.js';
import type { VectorScan } from './vector-scan.js';

/** What one committed write did to the libraries' vectors. */
export interface VectorChanges {
  added: Array<{ libraryId: number; rowid: number; kind: ItemKind; vector: Float32Array }>;
  removed: Array<{ libraryId: number; rowid: number }>;
}

/** LIBRARY_VECTOR_CACHE_MB when unset: about 250,000 passages of 512 dimensions. */
export const DEFAULT_VECTOR_CACHE_MB = 512;

/**
 * The in-memory vector scans of the libraries searched lately, under a
 * memory budget: once the scans hold more than it, the least recently used
 * libraries' scans are dropped (a later search loads its library again from
 * SQLite: a library of a few hundred passages in a few milliseconds). The
 * library in use always stays, even alone over the budget: it is searched
 * now. A service with thousands of end users keeps its memory bounded by
 * configuration instead of growing with every library ever searched.
 */
export class VectorCache {
  /** In order of use, least recent first (a Map keeps insertion order). */
  private readonly scans = new Map<number, VectorScan>();

  constructor(readonly budgetBytes: number) {}

  /** The library's scan, now its most recently used. */
  get(libraryId: number): VectorScan | undefined {
    const scan = this.scans.get(libraryId);
    if (scan) {
      this.scans.delete(libraryId);
      this.scans.set(libraryId, scan);
    }
    return scan;
  }

  /** The library's scan without counting it as used (a write keeping a cached scan current). */
  peek(libraryId: number): VectorScan | undefined {
    return this.scans.get(libraryId);
  }

  set(libraryId: number, scan: VectorScan): void {
    this.scans.delete(libraryId);
    this.scans.set(libraryId, scan);
    this.trim(libraryId);
  }

  /** Drops least recently used scans until the rest fit the budget; `keep` stays whatever its size. */
  trim(keep?: number): void {
    let total = this.bytes;
    for (const [libraryId, scan] of this.scans) {
      if (total <= this.budgetBytes) return;
      if (libraryId === keep) continue;
      this.scans.delete(libraryId);
      total -= scan.bytes;
    }
  }

  /**
   * Keeps the cached scans current with a committed write: only libraries
   * already cached change (another is loaded whole from SQLite when searched).
   * Applying a write twice, or after a load that already saw it, changes
   * nothing: a vector is added by its rowid, and a removal of one absent is none.
   */
  apply(changes: VectorChanges): void {
    for (const { libraryId, rowid } of changes.removed) this.peek(libraryId)?.remove(rowid);
    for (const { libraryId, rowid, kind, vector } of changes.added) this.peek(libraryId)?.add(rowid, kind, vector);
    if (changes.added.length) this.trim();
  }

  delete(libraryId: number): void {
    this.scans.delete(libraryId);
  }

  clear(): void {
    this.scans.clear();
  }

  get size(): number {
    return this.scans.size;
  }

  get bytes(): number {
    let total = 0;
    for (const scan of this.scans.values()) total += scan.bytes;
    return total;
  }
}
