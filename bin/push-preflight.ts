import mime from 'mime-types';
import { asReadFailure } from '../lambdas/adapters/extraction/read-failure.js';
import { sniff } from '../lambdas/adapters/extraction/sniff.js';
import { extractTextFile } from '../lambdas/adapters/extraction/text-formats.js';
import { decodePayload } from '../lambdas/core/capture.js';
import { requireText } from '../lambdas/core/document-indexing.js';
import { CaptureRejected, type RejectCode } from '../lambdas/core/errors.js';

/** The content type push declares for a file: by its extension, as the service's text readers use it to tell formats apart. */
export function declaredContentType(path: string): string {
  return mime.lookup(path) || 'application/octet-stream';
}

export interface PredictedRejection {
  code: RejectCode;
  detail: string;
}

/**
 * What `library push --dry-run` predicts the service will answer for a file:
 * the reject it would get in the capture request itself, or null when the
 * capture would be accepted (or when only reading the file later could say).
 *
 * It runs the service's own code, not a copy of its rules: the payload
 * checks of the capture (core/capture.ts: the 4 MiB limit of
 * core/limits.ts, an empty file), the magic-number sniffing that refuses
 * archives, audio, executables, RTF and legacy Office files
 * (extraction/sniff.ts), and the text readers that refuse binary data,
 * invalid JSON and files with no text (extraction/text-formats.ts): what
 * the capture checks before it answers, a text file being read in the
 * request.
 *
 * Not predicted: what the ingest queue finds later in a PDF, a DOCX or an
 * image (page and OCR limits, a corrupt file). The capture accepts those
 * (status processing) and the document may end `failed`; the dry run counts
 * them as to create, which is what the run's receipts will say.
 */
export async function predictRejection(
  bytes: Uint8Array,
  file: { filename: string; contentType: string },
): Promise<PredictedRejection | null> {
  try {
    // The payload checks of the capture itself: the size limit, an empty file.
    decodePayload({
      contentBase64: Buffer.from(bytes).toString('base64'),
      filename: file.filename,
      contentType: file.contentType,
    });
    const sniffed = await sniff(bytes);
    if (sniffed.family !== 'text') return null; // read by the ingest queue, after the receipt
    requireText(extractTextFile(bytes, file.contentType, file.filename).text);
    return null;
  } catch (error) {
    const failure = asReadFailure(error);
    return failure instanceof CaptureRejected ? { code: failure.rejectCode, detail: failure.detail } : null;
  }
}
