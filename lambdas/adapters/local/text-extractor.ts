import type { ExtractedText, ExtractionInput, TextExtractor } from '../../ports.js';
import { CaptureRejected } from '../../core/errors.js';

/** Media types whose bytes are text already. */
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv', 'application/json']);

const baseType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/**
 * Extraction of text-like files (plain text, Markdown, CSV, JSON) in UTF-8.
 * Other types are refused as unsupported.
 */
export class TextLikeExtractor implements TextExtractor {
  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const type = baseType(input.declaredContentType);
    if (!TEXT_TYPES.has(type)) throw new CaptureRejected('unsupported_type', `content_type: ${type} files are not supported`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(input.bytes);
    } catch {
      throw new CaptureRejected('extraction_failed', 'the file is not valid UTF-8 text');
    }
    if (text.includes('\u0000')) throw new CaptureRejected('unsupported_type', 'the file is binary, not text');
    if (type === 'application/json') {
      try {
        JSON.parse(text);
      } catch {
        throw new CaptureRejected('extraction_failed', 'the file is not valid JSON');
      }
    }
    return { text, kind: 'file', contentType: type, pageCount: null, ocrPages: 0 };
  }
}
