import type { ExtractedText, ExtractionInput, ExtractionOptions, TextExtractor } from '../../../core/ports.js';
import { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits } from '../limits.js';
import type { OcrEngine, PdfOcr } from '../ocr-ports.js';
import type { ReaderMode } from './protocol.js';
import { type Lane, ReaderPool } from './reader-pool.js';
import { sourceReaderThread } from './thread-script.js';

export interface IsolatedExtractorOptions {
  /** Every format (local stack, the ingest function) or text formats only (the AWS capture functions). */
  mode: ReaderMode;
  ocr?: OcrEngine;
  pdfOcr?: PdfOcr;
  limits?: Partial<ExtractionLimits>;
  /** Reader threads per lane; default one for requests and one for the queue. */
  threads?: Partial<Record<Lane, number>>;
  /** How much the process may grow while files are read (bytes). Default 768 MiB. */
  memoryGrowthBytes?: number;
  /** An absolute RSS ceiling too (a Lambda function's memory less a margin). */
  memoryCeilingBytes?: number;
  /** The reader thread's script (the bundle the AWS functions ship); default: built from the sources (thread-script.ts). */
  workerUrl?: URL;
  log?: (message: string, detail: Record<string, unknown>) => void;
}

export const DEFAULT_MEMORY_GROWTH_BYTES = 768 * 1024 * 1024;
/** A request's sniffing (magic numbers, a zip's directory) that takes longer counts as slow work and is queued. */
const SNIFF_BUDGET_MS = 2_000;

/**
 * The extractor both stacks use: the same pipeline (FileExtractor, or the
 * text formats alone) run in supervised reader threads (reader-pool.ts), so
 * no caller's bytes are ever parsed on the thread that serves requests, and
 * every read ends within its time and memory limits with a text or a
 * CaptureRejected naming the limit.
 */
export class IsolatedExtractor implements TextExtractor {
  readonly limits: ExtractionLimits;
  private readonly pool: ReaderPool;

  constructor(options: IsolatedExtractorOptions) {
    this.limits = { ...DEFAULT_EXTRACTION_LIMITS, ...options.limits };
    this.pool = new ReaderPool({
      workerUrl: options.workerUrl ?? (() => sourceReaderThread(options.mode)),
      mode: options.mode,
      limits: this.limits,
      ocr: options.ocr,
      pdfOcr: options.pdfOcr,
      threads: { request: options.threads?.request ?? 1, background: options.threads?.background ?? 1 },
      memoryGrowthBytes: options.memoryGrowthBytes ?? DEFAULT_MEMORY_GROWTH_BYTES,
      memoryCeilingBytes: options.memoryCeilingBytes,
      sniffBudgetMs: SNIFF_BUDGET_MS,
      log: options.log,
    });
  }

  /** Asked within a request: sniffed on a request thread; with none free, or past the sniffing budget, the file counts as slow (queued). */
  async isSlowWork(bytes: Uint8Array): Promise<boolean> {
    if (bytes.byteLength > this.limits.inlineMaxBytes) return true;
    try {
      return (await this.pool.run('request', { op: 'slow-work', bytes }, { wallLimitMs: SNIFF_BUDGET_MS })) as boolean;
    } catch {
      return true;
    }
  }

  async extract(input: ExtractionInput, options?: ExtractionOptions): Promise<ExtractedText> {
    const read = {
      op: 'extract' as const,
      bytes: input.bytes,
      declaredContentType: input.declaredContentType,
      filename: input.filename,
    };
    if (options?.request)
      return (await this.pool.run('request', read, { signal: options.request.signal })) as ExtractedText;
    return (await this.pool.run('background', read)) as ExtractedText;
  }

  /** Starts a request thread now (the server, so that its first file capture does not wait for one). */
  warm(): void {
    this.pool.warm('request');
  }

  readerState(): ReturnType<ReaderPool['state']> {
    return this.pool.state();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
