import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { FolderBlobStore } from '../../lambdas/adapters/local/folder-blob-store.js';
import { SqliteDocumentStore } from '../../lambdas/adapters/local/sqlite-document-store.js';
import { newDocumentRecord } from '../../lambdas/core/document-record.js';
import { ORPHAN_AGE_MS, sweepOrphanBlobs } from '../../lambdas/wiring/local/orphan-blobs.js';

describe("the sweep of blob files no record names (what a crash between a capture's bytes and its claim leaves)", () => {
  it('removes old files no record names and temporary files, and keeps named files and files too young to judge', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orphan-blobs-'));
    const root = join(dataDir, 'blobs');
    const blobs = new FolderBlobStore(root);
    const documents = new SqliteDocumentStore(openDatabase(join(dataDir, 'library.db')));
    const ref = { tenantId: 'ten_sweep', endUserId: 'u' };
    const content = {
      sha256: 'a'.repeat(64),
      sizeBytes: 5,
      kind: 'file' as const,
      contentType: 'text/plain',
      text: 'bytes',
      pageCount: null,
      hasBytes: true,
    };
    const named = newDocumentRecord(ref, { filename: 'kept.txt' }, content, new Date().toISOString());
    await blobs.put(named.blobKey!, Buffer.from('kept'));
    const generation = await documents.touchLibrary(ref, named.createdAt);
    expect((await documents.claim(named, generation)).claimed).toBe(true);
    const orphan = 'blobs/ten_sweep/file_01M8ZZZZZZZZZZZZZZZZZZZZZZ';
    await blobs.put(orphan, Buffer.from('left by a crash'));
    const young = 'blobs/ten_sweep/file_01M8YYYYYYYYYYYYYYYYYYYYYY';
    await blobs.put(young, Buffer.from('a capture in flight'));
    const temporary = join(root, 'blobs', 'ten_sweep', '.0123456789ab.tmp');
    writeFileSync(temporary, 'half a write');
    const old = (Date.now() - 2 * ORPHAN_AGE_MS) / 1000;
    for (const key of [named.blobKey!, orphan]) utimesSync(join(root, key), old, old);
    utimesSync(temporary, old, old);

    expect(await sweepOrphanBlobs(blobs, documents)).toBe(2);
    expect(existsSync(join(root, orphan))).toBe(false);
    expect(existsSync(temporary)).toBe(false);
    expect(existsSync(join(root, named.blobKey!))).toBe(true);
    expect(existsSync(join(root, young))).toBe(true);
    // Once old enough, the young one goes too; the named one never does.
    expect(await sweepOrphanBlobs(blobs, documents, Date.now() + 2 * ORPHAN_AGE_MS)).toBe(1);
    expect(existsSync(join(root, young))).toBe(false);
    expect(existsSync(join(root, named.blobKey!))).toBe(true);
  });

  it('does nothing on a folder with no blobs yet', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orphan-blobs-'));
    const documents = new SqliteDocumentStore(openDatabase(join(dataDir, 'library.db')));
    expect(await sweepOrphanBlobs(new FolderBlobStore(join(dataDir, 'blobs')), documents)).toBe(0);
  });
});
