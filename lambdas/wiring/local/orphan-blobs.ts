import type { FolderBlobStore } from '../../adapters/local/folder-blob-store.js';
import type { SqliteDocumentStore } from '../../adapters/local/sqlite-document-store.js';

/**
 * How long a file must have stood before the sweep may take it: a capture
 * writes its bytes, then claims its record at once (core/document-record.ts,
 * claimDocument), so a file this old that no record names was left by a
 * process that died between the two, or by a write cut off half-way (its
 * temporary file). A minute is far beyond the claim's few milliseconds.
 */
export const ORPHAN_AGE_MS = 60_000;

/**
 * Removes the data folder's blob files no document record names: a crash
 * between a capture's bytes and its claim, or inside a write, left them,
 * and no deletion or erasure could reach them since no record points at
 * them (an erased end user's bytes could stay on disk). The files are listed
 * first and the records read after, so a record claimed meanwhile is seen.
 * Returns how many files went.
 */
export async function sweepOrphanBlobs(
  blobs: FolderBlobStore,
  documents: Pick<SqliteDocumentStore, 'blobKeys'>,
  now: number = Date.now(),
): Promise<number> {
  const candidates: Array<{ key: string; temporary: boolean }> = [];
  for await (const file of blobs.filesWrittenBefore(now - ORPHAN_AGE_MS)) candidates.push(file);
  if (!candidates.length) return 0;
  const named = documents.blobKeys();
  let removed = 0;
  for (const file of candidates) {
    if (!file.temporary && named.has(file.key)) continue;
    await blobs.delete(file.key);
    removed += 1;
  }
  return removed;
}
