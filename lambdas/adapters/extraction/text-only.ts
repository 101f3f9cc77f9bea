import { CaptureRejected } from '../../core/errors.js';
import type { ExtractedText, ExtractionInput } from '../../core/ports.js';
import { asReadFailure } from './read-failure.js';
import { sniff } from './sniff.js';
import { extractTextFile } from './text-formats.js';

/**
 * The reader of the capture functions on AWS: text formats only (plain,
 * Markdown, HTML, CSV, JSON), with the same sniffing and readers as the full
 * pipeline and none of its native modules. PDFs, DOCX and images never reach
 * it (the core queues them for the ingest function); anything else the bytes
 * turn out to be is refused exactly as the full pipeline refuses it.
 */
export async function extractTextFormat(input: ExtractionInput): Promise<ExtractedText> {
  try {
    const sniffed = await sniff(input.bytes);
    if (sniffed.family !== 'text') {
      throw new CaptureRejected(
        'unsupported_type',
        `${sniffed.contentType} files are read by the ingest queue, not inline`,
      );
    }
    const { text, contentType } = extractTextFile(input.bytes, input.declaredContentType, input.filename);
    return { text, kind: 'file', contentType, pageCount: null, ocrPages: 0 };
  } catch (error) {
    throw asReadFailure(error);
  }
}
