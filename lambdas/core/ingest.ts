import type { DocumentStore, IngestJob, IngestQueue } from '../ports.js';
import type { CaptureDeps } from './capture.js';
import { chunkText, countLines } from './chunking.js';
import { BackendUnavailableError, CaptureRejected } from './errors.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import { indexAndCharge } from './document-indexing.js';
import { removeStaleCaptures } from './removal.js';

/**
 * The queued ingest, for stacks that have an IngestQueue (AWS): a capture of
 * slow work (a PDF, an image, an office file, a large file) stores the bytes,
 * claims the document with status `processing`, enqueues a job and returns its
 * receipt at once; the worker then runs `complete`: extract, chunk, embed,
 * index, and the status becomes `ready`, or `failed` when the file cannot be
 * read. Without a queue (locally) none of this runs.
 */
export interface IngestSettings {
  queue: IngestQueue;
  /** Files larger than this go to the queue whatever their type. */
  inlineMaxBytes: number;
}

/** What capture needs, but the queue: the worker finishes what capture started. */
export type IngestDeps = Omit<CaptureDeps, 'ingest'>;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

/** A DOCX is a ZIP whose entry names start with `word/`; other archives stay inline (and are refused there at once). */
function isWordZip(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('word/');
}

/**
 * Whether a file is slow work: its bytes are a PDF, a DOCX,
 * an image (OCR), or it is over the inline size. Decided by the bytes, never
 * by the declared type. The signatures are those of the types the extractor's
 * sniff (lambdas/extraction/sniff.ts) reads as pdf, docx or image, repeated
 * here so the core imports no extraction code;
 * test/extraction/slow-work.test.ts keeps the two in agreement.
 */
export function isSlowWork(bytes: Uint8Array, inlineMaxBytes: number): boolean {
  if (bytes.byteLength > inlineMaxBytes) return true;
  return (
    startsWith(bytes, [0x25, 0x50, 0x44, 0x46]) || // %PDF
    (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && isWordZip(bytes)) || // DOCX
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) || // PNG
    startsWith(bytes, [0xff, 0xd8, 0xff]) || // JPEG
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) || // GIF
    startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || // TIFF (little-endian)
    startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]) || // TIFF (big-endian)
    startsWith(bytes, [0x49, 0x49, 0x2b, 0x00]) || // BigTIFF (little-endian)
    startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2b]) || // BigTIFF (big-endian)
    (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) // RIFF....WEBP
  );
}

export type IngestOutcome =
  | { outcome: 'ready'; documentId: string }
  | { outcome: 'failed'; documentId: string; reason: string }
  /** Nothing to do: the document is gone or no longer processing (a repeated job). */
  | { outcome: 'skipped'; documentId: string };

export class IngestService {
  constructor(
    private readonly deps: IngestDeps,
    readonly settings: IngestSettings,
  ) {}

  isSlowWork(bytes: Uint8Array): boolean {
    return isSlowWork(bytes, this.settings.inlineMaxBytes);
  }

  /**
   * Stores the bytes and claims the document (status processing), then
   * enqueues its job. Exactly-once like the inline path: a lost claim is the
   * winner's document. Any failure undoes what was written and rethrows.
   */
  async queue(ref: LibraryRef, doc: DocumentRecord, bytes: Uint8Array): Promise<{ claimed: true } | { claimed: false; existing: DocumentRecord }> {
    const { documents, blobs, clock } = this.deps;
    if (!doc.blobKey || doc.status !== 'processing') throw new Error('a queued document has a blob key and status processing');
    let blobWritten = false;
    let claimed = false;
    try {
      await blobs.put(doc.blobKey, bytes, doc.contentType);
      blobWritten = true;
      await documents.touchLibrary(ref, clock.now());
      const claim = await documents.claim(doc);
      if (!claim.claimed) {
        await blobs.delete(doc.blobKey);
        return claim;
      }
      claimed = true;
      await this.settings.queue.enqueue({ tenantId: ref.tenantId, endUserId: ref.endUserId, documentId: doc.id });
      return { claimed: true };
    } catch (error) {
      if (claimed) await documents.delete(ref, doc.id).catch(() => undefined);
      if (blobWritten) await blobs.delete(doc.blobKey).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The worker's use case. A file that cannot be read ends `failed`; a
   * backend failure is thrown so the queue retries, except on the final
   * attempt, which ends `failed` rather than leaving the document processing.
   */
  async complete(job: IngestJob, options: { finalAttempt: boolean }): Promise<IngestOutcome> {
    const { documents, blobs, index, embedder, extractor } = this.deps;
    const ref: LibraryRef = { tenantId: job.tenantId, endUserId: job.endUserId };
    const doc = await documents.get(ref, job.documentId);
    if (!doc || doc.status !== 'processing') return { outcome: 'skipped', documentId: job.documentId };
    try {
      const bytes = doc.blobKey ? await blobs.get(doc.blobKey) : null;
      if (!bytes) throw new CaptureRejected('extraction_failed', 'the stored file is missing');
      const extracted = await extractor.extract({ bytes, declaredContentType: doc.contentType, filename: doc.filename ?? '' });
      if (!extracted.text.trim()) throw new CaptureRejected('empty_content', 'no text could be extracted from the file');
      const passages = chunkText(extracted.text);
      const vectors = await embedder.embed(passages.map((p) => p.text), 'passage');
      await indexAndCharge(this.deps, ref, doc, {
        kind: extracted.kind, text: extracted.text, passages, vectors, ocrPages: extracted.ocrPages, at: this.deps.clock.now(),
      });
      await this.finish(ref, doc, {
        status: 'ready', kind: extracted.kind, contentType: extracted.contentType,
        lineCount: countLines(extracted.text), pageCount: extracted.pageCount,
      });
      return { outcome: 'ready', documentId: doc.id };
    } catch (error) {
      const unreadable = error instanceof CaptureRejected;
      if (!unreadable && !options.finalAttempt) throw error;
      await index.remove(ref, doc.id).catch(() => undefined);
      await this.finish(ref, doc, { status: 'failed', kind: doc.kind, contentType: doc.contentType, lineCount: 0, pageCount: null });
      const reason = unreadable
        ? `${error.rejectCode}: ${error.detail}`
        : error instanceof BackendUnavailableError
          ? 'backend_unavailable: gave up after the last retry'
          : 'internal_error';
      return { outcome: 'failed', documentId: doc.id, reason };
    }
  }

  /**
   * Removes what captures left `processing` before `olderThan` (a function
   * stopped mid-capture, or a job lost beyond its retries): index entries,
   * bytes and record, as a failed capture would have; the payload can then be
   * captured again. Returns how many were rolled back.
   */
  recoverStale(olderThan: string): Promise<number> {
    return removeStaleCaptures(this.deps, olderThan);
  }

  private async finish(ref: LibraryRef, doc: DocumentRecord, result: Parameters<NonNullable<DocumentStore['finishIngest']>>[2]) {
    if (this.deps.documents.finishIngest) await this.deps.documents.finishIngest(ref, doc.id, result);
    else await this.deps.documents.setStatus(ref, doc.id, result.status);
  }
}
