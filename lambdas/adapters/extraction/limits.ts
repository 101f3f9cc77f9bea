/**
 * The extraction limits, in one place (docs/extraction.md explains each).
 * Every limit turns into a `too_large` reject, never into silently dropped text.
 */
export interface ExtractionLimits {
  /** Wall-clock budget for one file, from sniffing to the last OCR page. */
  timeBudgetMs: number;
  /** Processor time the thread reading one file may use (OCR runs elsewhere and is bounded by timeBudgetMs). */
  cpuBudgetMs: number;
  /** Heap of a thread that reads files (V8's old generation, MiB); typed arrays and native decoders are bounded by the reader pool's memory limit. */
  maxHeapMb: number;
  /** PDFs with more pages are refused. */
  maxPdfPages: number;
  /** Pages OCRed for one file (PDF pages without a text layer, TIFF pages); more is refused. */
  maxOcrPages: number;
  /** Pixels of one decoded image (or one rendered PDF page); guards against image bombs. */
  maxImagePixels: number;
  /** A page image given to OCR is scaled to fit this many pixels on its longest side. */
  ocrMaxSidePx: number;
  /** PDF pages without a text layer are rendered at this resolution for OCR. */
  ocrRenderDpi: number;
  /** DOCX is a zip: refused above this many entries ... */
  maxZipEntries: number;
  /** ... or above this total uncompressed size: the declared sizes, then the real output as it inflates (zip-inflate.ts). */
  maxZipUncompressedBytes: number;
  /** Text files up to this size are read in the capture request; larger ones, and every PDF, DOCX and image, are queued. */
  inlineMaxBytes: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  timeBudgetMs: 120_000,
  cpuBudgetMs: 60_000,
  maxHeapMb: 512,
  maxPdfPages: 1_000,
  maxOcrPages: 50,
  maxImagePixels: 50_000_000,
  ocrMaxSidePx: 4_000,
  ocrRenderDpi: 200,
  maxZipEntries: 1_000,
  maxZipUncompressedBytes: 64 * 1024 * 1024,
  // Reading a text format is fast: every allowed one (4 MiB) is read inline by default.
  inlineMaxBytes: 4 * 1024 * 1024,
};
