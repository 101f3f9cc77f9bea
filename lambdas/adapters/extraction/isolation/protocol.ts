import { BackendUnavailableError, CaptureRejected, type RejectCode } from '../../../core/errors.js';
import type { ExtractedText } from '../../../core/ports.js';
import type { ExtractionLimits } from '../limits.js';
import type { OcrImage, OcrResult } from '../ocr-ports.js';

/**
 * The messages between a file reader thread (extraction-thread.ts) and the
 * pool that supervises it (reader-pool.ts). Errors cross as data: the
 * domain errors are rebuilt on the other side with their codes.
 */

/** Which readers a thread holds: every format (local stack, ingest function) or text formats only (the AWS capture functions). */
export type ReaderMode = 'full' | 'text';

export interface ReaderThreadData {
  mode: ReaderMode;
  limits: ExtractionLimits;
  /** OCR of whole PDFs is offered by the supervisor (Textract's asynchronous jobs). */
  pdfOcr: boolean;
  /** The thread's niceness (Linux: per thread): a reader never outruns the server's requests for a core. */
  nice: number;
}

export type ReadOp =
  | { op: 'slow-work'; bytes: Uint8Array }
  | { op: 'extract'; bytes: Uint8Array; declaredContentType: string; filename: string };

export type ToReader =
  | ({ type: 'read'; id: number } & ReadOp)
  | { type: 'ocr-reply'; call: number; result?: OcrResult; pages?: string[]; error?: WireError };

export type FromReader =
  | { type: 'ready'; threadId: number | null }
  /** `heapBytes`: what the thread's heap (and the buffers it holds) takes after the read, for the supervisor to recycle a bloated thread. */
  | { type: 'done'; id: number; value?: ExtractedText | boolean; error?: WireError; heapBytes: number }
  | { type: 'ocr'; call: number; image: OcrImage }
  | { type: 'pdf-ocr'; call: number; pdf: Uint8Array }
  | { type: 'ocr-cancel'; call: number };

export type WireError =
  | { kind: 'rejected'; code: RejectCode; detail: string }
  | { kind: 'unavailable'; message: string; retryAfterSeconds: number }
  | { kind: 'error'; message: string };

export function toWire(error: unknown): WireError {
  if (error instanceof CaptureRejected) return { kind: 'rejected', code: error.rejectCode, detail: error.detail };
  if (error instanceof BackendUnavailableError)
    return { kind: 'unavailable', message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
}

export function fromWire(error: WireError): Error {
  if (error.kind === 'rejected') return new CaptureRejected(error.code, error.detail);
  if (error.kind === 'unavailable') return new BackendUnavailableError(error.message, error.retryAfterSeconds);
  return new Error(error.message);
}
