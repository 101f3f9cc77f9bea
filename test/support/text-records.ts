import { createHash } from 'node:crypto';
import { type CaptureLabels, newDocumentRecord } from '../../lambdas/core/document-record.js';
import type { DocumentRecord, LibraryRef } from '../../lambdas/core/model.js';

/** The record a text push of `text` claims (core/document-record.ts), for tests that replay a capture's steps. */
export function textPushRecord(
  ref: LibraryRef,
  text: string,
  labels: CaptureLabels,
  createdAt: string,
): DocumentRecord {
  return newDocumentRecord(
    ref,
    labels,
    {
      sha256: createHash('sha256').update(text).digest('hex'),
      sizeBytes: Buffer.byteLength(text),
      kind: 'text',
      contentType: 'text/plain; charset=utf-8',
      text,
      pageCount: null,
      hasBytes: false,
    },
    createdAt,
  );
}
