import { CaptureRejected } from '../../core/errors.js';
import type { Deadline } from './deadline.js';
import { htmlToText } from './html.js';
import type { ExtractionLimits } from './limits.js';
import { inflateZipBounded } from './zip-inflate.js';

/**
 * DOCX body text: mammoth maps the document to semantic HTML (headings,
 * paragraphs, lists, tables; footnotes and endnotes at the end), which the
 * HTML reader turns into lines. The zip is inflated first with its real
 * output counted against the limits (zip-inflate.ts); mammoth reads only
 * what was counted, stored without compression.
 */
export async function extractDocx(bytes: Uint8Array, limits: ExtractionLimits, deadline: Deadline): Promise<string> {
  const stored = await deadline.race(inflateZipBounded(bytes, limits));
  let html: string;
  try {
    // Loaded on the first DOCX, not at start: most servers never read one, and it weighs ~16 MB.
    const { default: mammoth } = await import('mammoth');
    html = (
      await deadline.race(mammoth.convertToHtml({ buffer: Buffer.from(stored) }, { ignoreEmptyParagraphs: true }))
    ).value;
  } catch (error) {
    if (error instanceof CaptureRejected) throw error;
    throw new CaptureRejected('extraction_failed', 'the DOCX is corrupt or malformed');
  }
  return htmlToText(html);
}
