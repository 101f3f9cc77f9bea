import { createHash } from 'node:crypto';
import type { LibraryRef } from '../model.js';
import type { BucketProvider } from '../ports.js';

/**
 * Where a document's bytes lie in a caller's bucket (docs/bucket.md, "Object
 * keys"). One bucket per tenant, so keys name the library and the document:
 *
 *   {prefix}shared/{file_id}                       the tenant's shared library
 *   {prefix}end-users/{end_user_id, encoded}/{file_id}   one end user's library
 *
 * A document's blobKey records the bucket location with the object key
 * (`bucket:{location}:{objectKey}`), so a later read or delete goes to that
 * bucket only, never to another one registered since.
 */

const LOCATOR = 'bucket:';

/** The identity of a bucket, apart from the credentials used to reach it: key rotation keeps it. */
export function bucketLocation(provider: BucketProvider, endpoint: string | null, bucket: string): string {
  return createHash('sha256')
    .update(JSON.stringify([provider, endpoint ?? '', bucket]))
    .digest('hex')
    .slice(0, 24);
}

/** An end user id as one key segment: percent-encoded, dots too (no `.` or `..` segment, no `/`). */
const segment = (value: string) => encodeURIComponent(value).replace(/\./g, '%2E');

export function objectKeyFor(prefix: string, ref: LibraryRef, documentId: string): string {
  const library = ref.endUserId === null ? 'shared' : `end-users/${segment(ref.endUserId)}`;
  return `${prefix}${library}/${documentId}`;
}

/** Probe objects lie apart from documents, under a name no document key takes. */
export const probeKeyFor = (prefix: string, random: string) => `${prefix}.library-probe/${random}`;

export const bucketBlobKey = (location: string, objectKey: string) => `${LOCATOR}${location}:${objectKey}`;

export function parseBucketBlobKey(blobKey: string): { location: string; objectKey: string } | null {
  if (!blobKey.startsWith(LOCATOR)) return null;
  const rest = blobKey.slice(LOCATOR.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) return null;
  return { location: rest.slice(0, colon), objectKey: rest.slice(colon + 1) };
}

/** Where the service's own storage keeps a document's bytes. */
export const serviceBlobKey = (tenantId: string, documentId: string) => `blobs/${tenantId}/${documentId}`;
