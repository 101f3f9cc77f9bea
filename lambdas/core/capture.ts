import { createHash } from 'node:crypto';
import type { BlobStore, Clock, DocumentStore, Embedder, SearchIndex, TextExtractor } from '../ports.js';
import { chunkText, countLines, splitLines } from './chunking.js';
import { BackendUnavailableError, CaptureRejected, type RejectCode } from './errors.js';
import { newId } from './ids.js';
import { indexAndCharge } from './document-indexing.js';
import { removeDocument } from './removal.js';
import { LIMITS } from './limits.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { IngestService } from './ingest.js';
import type { CaptureSpend } from './usage.js';

/** One capture item after its shape was validated (types and lengths; see http/schemas.ts). */
export interface CaptureItem {
  text?: string;
  contentBase64?: string;
  filename?: string;
  contentType?: string;
  title?: string;
  sourceRef?: string;
}

/** The capture receipt, exactly as API.md publishes it. */
export interface CaptureReceipt {
  ok: boolean;
  status: 'created' | 'deduped' | 'rejected';
  dedup: boolean;
  detail: string;
  id: string | null;
  file_id: string | null;
  reject_code: RejectCode | null;
  retryable: boolean | null;
  source_ref: string | null;
}

export const rejectedReceipt = (code: RejectCode, detail: string): CaptureReceipt => ({
  ok: false,
  status: 'rejected',
  dedup: false,
  detail,
  id: null,
  file_id: null,
  reject_code: code,
  retryable: code === 'backend_unavailable',
  source_ref: null,
});

const acceptedReceipt = (status: 'created' | 'deduped', doc: DocumentRecord, detail: string): CaptureReceipt => ({
  ok: true,
  status,
  dedup: status === 'deduped',
  detail,
  id: doc.id,
  file_id: doc.id,
  reject_code: null,
  retryable: null,
  source_ref: doc.sourceRef,
});

export interface CaptureDeps {
  documents: DocumentStore;
  blobs: BlobStore;
  index: SearchIndex;
  embedder: Embedder;
  extractor: TextExtractor;
  clock: Clock;
  /** Told of every accepted capture, for spend accounting. */
  onCaptured?: (event: CaptureSpend) => Promise<void>;
  /** The queued ingest (AWS): slow files are claimed `processing` and finished by a worker. Absent locally. */
  ingest?: IngestService;
}

/** Standard base64 (RFC 4648, section 4), padding optional, no whitespace. Linear: safe on megabytes. */
function isBase64(encoded: string): boolean {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return false;
  const unpadded = encoded.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return false;
  return encoded.length === unpadded.length || encoded.length % 4 === 0;
}

const decodedLength = (encoded: string) => Math.floor((encoded.replace(/=+$/, '').length * 3) / 4);

/** What a payload becomes before it is stored: its identity and its text. */
interface Prepared {
  sha256: string;
  sizeBytes: number;
  bytes: Uint8Array | null;
  text: string;
  kind: DocumentRecord['kind'];
  contentType: string;
  filename: string | null;
  pageCount: number | null;
  ocrPages: number;
}

export class CaptureService {
  /** Concurrent captures of one payload in this process share one run (single flight). */
  private readonly inFlight = new Map<string, Promise<CaptureReceipt>>();

  constructor(private readonly deps: CaptureDeps) {}

  async capture(ref: LibraryRef, item: CaptureItem): Promise<CaptureReceipt> {
    try {
      const payload = decodePayload(item);
      const sha256 = createHash('sha256').update(payload.bytes).digest('hex');
      return await this.singleFlight(ref, item, payload, sha256);
    } catch (error) {
      return receiptForFailure(error);
    }
  }

  /** Runs the capture, or waits for the same payload's run in flight and then looks again (decoded and hashed once). */
  private async singleFlight(
    ref: LibraryRef,
    item: CaptureItem,
    payload: { bytes: Uint8Array; isText: boolean },
    sha256: string,
  ): Promise<CaptureReceipt> {
    const flightKey = JSON.stringify([ref.tenantId, ref.endUserId, sha256]);
    const running = this.inFlight.get(flightKey);
    if (running) {
      const first = await running;
      // The first run stored it: this one is a duplicate. If it failed, try again ourselves.
      if (first.ok) return this.singleFlight(ref, item, payload, sha256);
    }
    const run = this.captureOnce(ref, item, payload, sha256);
    this.inFlight.set(flightKey, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(flightKey) === run) this.inFlight.delete(flightKey);
    }
  }

  private async captureOnce(
    ref: LibraryRef,
    item: CaptureItem,
    payload: { bytes: Uint8Array; isText: boolean },
    sha256: string,
  ): Promise<CaptureReceipt> {
    try {
      const existing = await this.deps.documents.findBySha256(ref, sha256);
      if (existing?.status === 'failed') {
        // A document whose queued ingest failed holds no text: sending it again is a retry, not a duplicate.
        await removeDocument(this.deps, existing);
      } else if (existing) {
        await this.deps.documents.touchLibrary(ref, this.deps.clock.now()); // a capture is activity, even a duplicate
        return acceptedReceipt('deduped', existing, 'the same content is already in this library');
      }

      if (!payload.isText && this.deps.ingest?.isSlowWork(payload.bytes)) {
        return await this.queueForIngest(ref, item, payload.bytes, sha256);
      }
      const prepared = await this.prepare(item, payload, sha256);
      const passages = chunkText(prepared.text);
      const vectors = await this.deps.embedder.embed(passages.map((p) => p.text), 'passage');
      return await this.store(ref, item, prepared, passages, vectors);
    } catch (error) {
      return receiptForFailure(error);
    }
  }

  private async prepare(item: CaptureItem, payload: { bytes: Uint8Array; isText: boolean }, sha256: string): Promise<Prepared> {
    if (payload.isText) {
      const text = item.text ?? '';
      return {
        sha256, sizeBytes: payload.bytes.byteLength, bytes: null, text, kind: 'text',
        contentType: 'text/plain; charset=utf-8', filename: null, pageCount: null, ocrPages: 0,
      };
    }
    const extracted = await this.deps.extractor.extract({
      bytes: payload.bytes,
      declaredContentType: item.contentType ?? 'application/octet-stream',
      filename: item.filename ?? '',
    });
    if (!extracted.text.trim()) throw new CaptureRejected('empty_content', 'no text could be extracted from the file');
    return {
      sha256, sizeBytes: payload.bytes.byteLength, bytes: payload.bytes, text: extracted.text,
      kind: extracted.kind, contentType: extracted.contentType, filename: item.filename ?? null,
      pageCount: extracted.pageCount, ocrPages: extracted.ocrPages,
    };
  }

  /** Writes blob, record and index entries; undoes them all if any step fails. */
  private async store(
    ref: LibraryRef,
    item: CaptureItem,
    prepared: Prepared,
    passages: ReturnType<typeof chunkText>,
    vectors: Float32Array[],
  ): Promise<CaptureReceipt> {
    const { documents, blobs, clock } = this.deps;
    const now = clock.now();
    const id = newId('file');
    const blobKey = prepared.bytes ? `blobs/${ref.tenantId}/${id}` : null;
    const doc: DocumentRecord = {
      id,
      tenantId: ref.tenantId,
      endUserId: ref.endUserId,
      title: defaultTitle(item, prepared.text),
      filename: prepared.filename,
      contentType: prepared.contentType,
      sourceRef: item.sourceRef ?? null,
      sizeBytes: prepared.sizeBytes,
      sha256: prepared.sha256,
      kind: prepared.kind,
      status: 'processing',
      createdAt: now,
      storage: 'service',
      lineCount: countLines(prepared.text),
      pageCount: prepared.pageCount,
      blobKey,
    };

    let blobWritten = false;
    let claimed = false;
    try {
      if (blobKey && prepared.bytes) {
        await blobs.put(blobKey, prepared.bytes, prepared.contentType);
        blobWritten = true;
      }
      await documents.touchLibrary(ref, now);
      const claim = await documents.claim(doc);
      if (!claim.claimed) {
        if (blobKey) await blobs.delete(blobKey);
        blobWritten = false;
        return acceptedReceipt('deduped', claim.existing, 'the same content is already in this library');
      }
      claimed = true;
      await indexAndCharge(this.deps, ref, doc, { kind: prepared.kind, text: prepared.text, passages, vectors, ocrPages: prepared.ocrPages, at: now });
      await documents.setStatus(ref, id, 'ready');
    } catch (error) {
      await this.undo(ref, id, blobKey, blobWritten, claimed);
      throw error;
    }
    return acceptedReceipt('created', doc, 'stored and indexed');
  }

  /** Slow work: store and claim now (status processing), extract and index in the ingest worker. */
  private async queueForIngest(ref: LibraryRef, item: CaptureItem, bytes: Uint8Array, sha256: string): Promise<CaptureReceipt> {
    const id = newId('file');
    const contentType = item.contentType ?? 'application/octet-stream';
    const doc: DocumentRecord = {
      id,
      tenantId: ref.tenantId,
      endUserId: ref.endUserId,
      title: defaultTitle(item, ''),
      filename: item.filename ?? null,
      contentType,
      sourceRef: item.sourceRef ?? null,
      sizeBytes: bytes.byteLength,
      sha256,
      kind: 'file',
      status: 'processing',
      createdAt: this.deps.clock.now(),
      storage: 'service',
      lineCount: 0,
      pageCount: null,
      blobKey: `blobs/${ref.tenantId}/${id}`,
    };
    const claim = await this.deps.ingest!.queue(ref, doc, bytes);
    if (!claim.claimed) return acceptedReceipt('deduped', claim.existing, 'the same content is already in this library');
    return acceptedReceipt('created', doc, 'stored; extraction and indexing continue in the background (document status processing)');
  }

  /** Best-effort compensation: a failed capture must leave nothing behind. */
  private async undo(ref: LibraryRef, id: string, blobKey: string | null, blobWritten: boolean, claimed: boolean) {
    const steps: Array<() => Promise<void>> = [];
    if (claimed) steps.push(() => this.deps.index.remove(ref, id), () => this.deps.documents.delete(ref, id));
    if (blobWritten && blobKey) steps.push(() => this.deps.blobs.delete(blobKey));
    for (const step of steps) await step().catch(() => undefined);
  }
}

/** Checks presence, base64 and sizes; returns the payload bytes that define identity. */
function decodePayload(item: CaptureItem): { bytes: Uint8Array; isText: boolean } {
  const hasText = item.text !== undefined;
  const hasBytes = item.contentBase64 !== undefined;
  if (hasText && hasBytes) throw new CaptureRejected('ambiguous_content', 'send either text or content_base64, not both');
  if (!hasText && !hasBytes) throw new CaptureRejected('missing_content', 'send text or content_base64');
  if (hasText) {
    const bytes = Buffer.from(item.text!, 'utf8');
    if (bytes.byteLength > LIMITS.textBytes) throw new CaptureRejected('too_large', `text: at most ${LIMITS.textBytes} bytes of UTF-8`);
    if (!item.text!.trim()) throw new CaptureRejected('empty_content', 'text: empty or only whitespace');
    return { bytes, isText: true };
  }
  if (item.filename === undefined) throw new CaptureRejected('invalid_item', 'filename: required with content_base64');
  if (item.contentType === undefined) throw new CaptureRejected('invalid_item', 'content_type: required with content_base64');
  const encoded = item.contentBase64!;
  if (!isBase64(encoded)) throw new CaptureRejected('invalid_base64', 'content_base64: not valid base64');
  // Refuse before decoding: the decoded size follows from the encoded length.
  if (decodedLength(encoded) > LIMITS.fileBytes) {
    throw new CaptureRejected('too_large', `content_base64: decoded size over ${LIMITS.fileBytes} bytes (4 MiB)`);
  }
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.byteLength === 0) throw new CaptureRejected('empty_content', 'content_base64: the file is empty');
  return { bytes, isText: false };
}

function defaultTitle(item: CaptureItem, text: string): string {
  if (item.title !== undefined && item.title.trim()) return item.title;
  if (item.filename) return item.filename;
  const firstLine = splitLines(text).find((line) => line.trim()) ?? '';
  return firstLine.trim().slice(0, LIMITS.titleChars);
}

function receiptForFailure(error: unknown): CaptureReceipt {
  if (error instanceof CaptureRejected) return rejectedReceipt(error.rejectCode, error.detail);
  if (error instanceof BackendUnavailableError) {
    return rejectedReceipt('backend_unavailable', 'a storage or model backend is unavailable; nothing was stored; retry');
  }
  throw error;
}
