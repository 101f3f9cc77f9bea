import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { BackendUnavailableError } from '../../core/errors.js';
import type { BlobStore } from '../../core/ports.js';
import { presignGetObject } from '../aws/s3-presign.js';
import { classifyBucketError } from './classify.js';

/**
 * Raw bytes in a caller's bucket, keys as the core gives them (full object
 * keys). Every failure is a BucketError (classify.ts); a missing object reads
 * as null and deletes quietly, as every BlobStore does.
 */
export class S3CallerBlobStore implements BlobStore {
  constructor(
    /** The client to use now: the connector gives a fresh one after an auth failure. */
    private readonly client: () => S3Client,
    private readonly bucket: string,
    private readonly options: {
      /** AWS only (R2 and others do not implement it): the account that must own the bucket. */
      expectedBucketOwner?: string;
      /** Called on a refusal before the one retry (role credentials: drop the session, so a recreated role works at once). */
      onDenied?: () => boolean;
    } = {},
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.call((client) =>
      client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
          ExpectedBucketOwner: this.options.expectedBucketOwner,
        }),
      ),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return await this.call(
        async (client) => {
          const out = await client.send(
            new GetObjectCommand({
              Bucket: this.bucket,
              Key: key,
              ExpectedBucketOwner: this.options.expectedBucketOwner,
            }),
          );
          return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
        },
        (error) => isNoSuchKey(error),
      );
    } catch (error) {
      if (error === MISSING) return null;
      throw error;
    }
  }

  /**
   * A presigned GET with the caller's own credentials (their keys, or the
   * role session): the client fetches from their bucket, not through the
   * service. No request is made but a role's session, so a refused role
   * shows here and a refusing bucket only to whoever follows the URL.
   * ExpectedBucketOwner is not part of such a URL (S3 reads it from a header only).
   */
  async downloadUrl(
    key: string,
    options: { expiresInSeconds: number; contentType: string; contentDisposition: string },
  ): Promise<string> {
    return this.call((client) => presignGetObject(client, { bucket: this.bucket, key, ...options }));
  }

  async delete(key: string): Promise<void> {
    await this.call((client) =>
      client.send(
        new DeleteObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ExpectedBucketOwner: this.options.expectedBucketOwner,
        }),
      ),
    );
  }

  /** Runs a call; on a refusal the connector may drop credentials, and then it is tried once more with a fresh client. */
  private async call<T>(run: (client: S3Client) => Promise<T>, missing?: (error: unknown) => boolean): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await run(this.client());
      } catch (error) {
        if (missing?.(error)) throw MISSING;
        // The service's own failure (its role hop on AWS): not the customer's bucket, so not blamed on it.
        if (error instanceof BackendUnavailableError) throw error;
        const failure = classifyBucketError(error);
        if (failure.kind === 'denied' && attempt === 0 && this.options.onDenied?.()) continue;
        throw failure;
      }
    }
  }
}

const MISSING = Symbol('missing object');

function isNoSuchKey(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.Code === 'NoSuchKey';
}
