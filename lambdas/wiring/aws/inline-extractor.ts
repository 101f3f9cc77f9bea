import { CaptureRejected } from '../../core/errors.js';
import type { ExtractedText, ExtractionInput, TextExtractor } from '../../ports.js';

/** Loaded on the first bytes push, not at cold start: most captures are text pushes. */
const readers = () =>
  Promise.all([import('../../adapters/extraction/sniff.js'), import('../../adapters/extraction/text-formats.js'), import('../../adapters/extraction/slow-work.js')]);

/**
 * The extractor of the API functions on AWS: text formats only (plain,
 * Markdown, HTML, CSV, JSON), with the same sniffing and readers as the full
 * pipeline, and none of its native modules. PDFs, DOCX and images never reach
 * it: the core queues them for the ingest function (core/ingest-worker.ts), which
 * runs the full pipeline. Anything else the bytes turn out to be is refused
 * here exactly as the full pipeline refuses it.
 */
export class InlineTextExtractor implements TextExtractor {
  /** Text files over `inlineMaxBytes` are queued too. */
  constructor(private readonly inlineMaxBytes: number) {}

  async isSlowWork(bytes: Uint8Array): Promise<boolean> {
    const [, , { isSlowWork }] = await readers();
    return isSlowWork(bytes, this.inlineMaxBytes);
  }

  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const [{ sniff }, { extractTextFile }] = await readers();
    const sniffed = await sniff(input.bytes);
    if (sniffed.family !== 'text') {
      throw new CaptureRejected('unsupported_type', `${sniffed.contentType} files are read by the ingest queue, not inline`);
    }
    const { text, contentType } = extractTextFile(input.bytes, input.declaredContentType, input.filename);
    return { text, kind: 'file', contentType, pageCount: null, ocrPages: 0 };
  }
}
