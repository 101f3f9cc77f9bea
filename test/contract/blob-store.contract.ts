import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../lambdas/ports.js';

/** The BlobStore contract: every adapter (folder, S3) passes these. */
export function blobStoreContract(name: string, makeStore: () => Promise<BlobStore>) {
  describe(`BlobStore contract: ${name}`, () => {
    it('stores, reads back byte for byte, and deletes', async () => {
      const store = await makeStore();
      const key = `blobs/t-${Date.now()}/file_1`;
      const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
      await store.put(key, bytes, 'application/octet-stream');
      expect(Buffer.from((await store.get(key))!)).toEqual(Buffer.from(bytes));
      await store.delete(key);
      expect(await store.get(key)).toBeNull();
    });

    it('returns null for a missing key and deletes missing keys quietly', async () => {
      const store = await makeStore();
      expect(await store.get('blobs/none/missing')).toBeNull();
      await expect(store.delete('blobs/none/missing')).resolves.toBeUndefined();
    });

    it('replaces an object written twice under one key', async () => {
      const store = await makeStore();
      const key = `blobs/t-${Date.now()}/file_2`;
      await store.put(key, Buffer.from('first'), 'text/plain');
      await store.put(key, Buffer.from('second'), 'text/plain');
      expect(Buffer.from((await store.get(key))!).toString()).toBe('second');
    });
  });
}
