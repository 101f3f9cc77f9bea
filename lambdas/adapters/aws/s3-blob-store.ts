import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from '../../core/ports.js';
import { callAws } from './errors.js';
import { presignGetObject } from './s3-presign.js';

/**
 * Raw bytes in one S3 bucket (encrypted at rest by the bucket's default
 * encryption). Keys are chosen by the core and start with the tenant id.
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix = '',
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await callAws('blobs.put', () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.prefix + key, Body: bytes, ContentType: contentType }),
      ),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const result = await callAws('blobs.get', () =>
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key })),
      );
      return result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey' || (error as Error).name === 'NotFound') return null;
      throw error;
    }
  }

  /** A presigned GET (s3-presign.ts), signed with this function's credentials: it needs s3:GetObject on the key. */
  async downloadUrl(
    key: string,
    options: { expiresInSeconds: number; contentType: string; contentDisposition: string },
  ): Promise<string> {
    return callAws('blobs.downloadUrl', () =>
      presignGetObject(this.client, { bucket: this.bucket, key: this.prefix + key, ...options }),
    );
  }

  async delete(key: string): Promise<void> {
    await callAws('blobs.delete', () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key })),
    );
  }
}
