import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../lambdas/core/ports.js';
import { presignedSignatureHolds } from '../support/sigv4-query.js';

/**
 * The BlobStore contract: every adapter (folder, S3) passes these. `links`:
 * the store makes download links (S3: presigned with `secret`'s key), or it
 * does not and its bytes are served through the service.
 */
export function blobStoreContract(
  name: string,
  makeStore: () => Promise<BlobStore>,
  options: { links?: { secret: string } } = {},
) {
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

    it(
      options.links
        ? 'makes download links that serve the bytes with the type and disposition asked for, and 404 for a missing key'
        : 'makes no download links: its bytes go through the service',
      async () => {
        const store = await makeStore();
        if (!options.links) {
          expect(store.downloadUrl).toBeUndefined();
          return;
        }
        const key = `blobs/t-${Date.now()}/file é 3`;
        const bytes = Uint8Array.from({ length: 5_000 }, (_, i) => (i * 17) % 256);
        await store.put(key, bytes, 'application/octet-stream');
        const disposition = `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`;
        const url = await store.downloadUrl!(key, {
          expiresInSeconds: 60,
          contentType: 'application/pdf',
          contentDisposition: disposition,
        });
        expect(presignedSignatureHolds(url, options.links.secret)).toBe(true);
        expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(bytes));
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('content-disposition')).toBe(disposition);
        const missing = await fetch(
          await store.downloadUrl!('blobs/none/missing', {
            expiresInSeconds: 60,
            contentType: 'text/plain',
            contentDisposition: 'attachment',
          }),
        );
        expect(missing.status).toBe(404);
        await missing.arrayBuffer();
      },
    );
  });
}
