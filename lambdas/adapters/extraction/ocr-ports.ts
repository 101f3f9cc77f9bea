/**
 * The ports of optical character recognition: used by the extraction
 * adapters only (the core never reads page images), so they live beside
 * them rather than among the core's ports.
 */

/** One page image to read: a PNG the extraction pipeline prepared (oriented, flattened, sized). */
export interface OcrImage {
  png: Uint8Array;
  width: number;
  height: number;
}

export interface OcrResult {
  /** The recognized text, lines separated by "\n". */
  text: string;
  /** Mean word confidence in [0, 1], when the engine reports one. */
  confidence: number | null;
}

/**
 * Reads the text of page images (photos, scans, PDF pages without a text
 * layer). Each call is one OCR page of spend. Throws BackendUnavailableError
 * when the engine is down or throttling.
 */
export interface OcrEngine {
  readonly name: string;
  recognize(image: OcrImage, options?: { signal?: AbortSignal }): Promise<OcrResult>;
}

/** Where a stored document lies, for OCR engines that read whole documents from storage. */
export interface StoredObjectRef {
  bucket: string;
  key: string;
}

export type DocumentOcrJobResult =
  | { status: 'in_progress' }
  | { status: 'succeeded' /** Text per page, index 0 is page 1. */; pages: string[] }
  | { status: 'failed'; message: string };

/**
 * Asynchronous OCR of a whole multi-page PDF (Textract's
 * StartDocumentTextDetection), driven by the AWS ingest queue.
 */
export interface DocumentOcrJobs {
  /** Starts a job; returns its id. `clientToken` makes a retried start idempotent. */
  start(document: StoredObjectRef, options?: { clientToken?: string }): Promise<string>;
  result(jobId: string): Promise<DocumentOcrJobResult>;
}

/**
 * OCR of a whole PDF in one job, for engines that read documents rather than
 * page images (Textract's asynchronous API). Every page is read and billed.
 */
export interface PdfOcr {
  /** Text per page, index 0 is page 1. */
  readPdf(pdf: Uint8Array, options?: { signal?: AbortSignal }): Promise<{ pages: string[] }>;
}
