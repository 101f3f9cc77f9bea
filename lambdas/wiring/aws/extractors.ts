import { TextractClient } from '@aws-sdk/client-textract';
import { TextractOcr } from '../../adapters/aws/textract-ocr.js';
import { TextractPdfOcr } from '../../adapters/aws/textract-pdf-ocr.js';
import { IsolatedExtractor } from '../../adapters/extraction/isolation/isolated-extractor.js';
import { logger } from '../../http/observability.js';
import { awsConfig, readerThreadFile, TEXTRACT_STAGING_PREFIX } from './config.js';
import { tracer } from './observability.js';
import { s3Client } from './s3.js';
import { sdkOptions } from './sdk.js';

/**
 * The extractors of the functions that read callers' files. Both read in a
 * reader thread within the extraction limits (adapters/extraction/isolation),
 * so a hostile file costs one bounded read, not the invocation: the thread is
 * the bundle the stack builds beside the function's own (lib/), and the
 * process may hold at most 85% of the function's memory while files are read.
 */
export const MEMORY_SHARE = 0.85;

/**
 * The reader threads' script and memory bound in this function: its
 * `LIBRARY_READER_THREAD` bundle beside the function's own (none in tests:
 * the sources), and the process's memory while files are read, a share of the
 * function's memory (none outside Lambda: the extractor's default growth).
 */
export function readerSettings(
  env: Record<string, string | undefined> = process.env,
  bundleUrl: string = import.meta.url,
) {
  const file = readerThreadFile(env);
  const memoryMiB = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  const ceiling =
    Number.isFinite(memoryMiB) && memoryMiB > 0 ? Math.floor(memoryMiB * MEMORY_SHARE * 1024 * 1024) : undefined;
  return {
    // In a bundle, import.meta.url is the function's index.mjs: the thread's bundle lies beside it.
    workerUrl: file ? new URL(`./${file}`, bundleUrl) : undefined,
    memoryCeilingBytes: ceiling,
    memoryGrowthBytes: ceiling,
    log: (message: string, detail: Record<string, unknown>) => logger.warn(message, detail),
  };
}

/**
 * The capture functions' extractor: text formats only (plain, Markdown,
 * HTML, CSV, JSON), with none of the full pipeline's native modules. PDFs,
 * DOCX and images are queued for the ingest function (the core asks
 * isSlowWork first); anything else is refused as the full pipeline refuses it.
 * One request at a time per instance: one reader thread, started with the
 * first file.
 */
export function captureExtractor(): IsolatedExtractor {
  return new IsolatedExtractor({
    mode: 'text',
    limits: { inlineMaxBytes: awsConfig().inlineMaxBytes },
    threads: { request: 1, background: 1 },
    ...readerSettings(),
  });
}

/**
 * The ingest function's extractor: the full pipeline (PDF text layer, DOCX,
 * images), Textract for OCR: DetectDocumentText for a photo or one scanned
 * page, and for a PDF with several scanned pages one asynchronous job on a
 * copy staged in the service bucket (TextractPdfOcr). Textract is called
 * from the function's own thread, for the reader thread that asks.
 */
export function ingestExtractor(): IsolatedExtractor {
  const textract = new TextractOcr(tracer.captureAWSv3Client(new TextractClient(sdkOptions())));
  const config = awsConfig();
  return new IsolatedExtractor({
    mode: 'full',
    ocr: textract,
    // The same slow-work rule as the capture functions', should the worker ever ask.
    limits: { inlineMaxBytes: config.inlineMaxBytes },
    pdfOcr: new TextractPdfOcr({
      jobs: textract,
      s3: s3Client(),
      bucket: config.blobBucket,
      prefix: TEXTRACT_STAGING_PREFIX,
    }),
    threads: { request: 1, background: 2 },
    ...readerSettings(),
  });
}
