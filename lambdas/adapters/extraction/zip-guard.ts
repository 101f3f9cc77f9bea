import { unzipSync } from 'fflate';
import { CaptureRejected } from '../../core/errors.js';

/**
 * Decompression-bomb guard for zip containers (DOCX): reads the central
 * directory only (fflate's filter declines every entry, so nothing is
 * inflated) and refuses a file whose entry count or declared uncompressed
 * total is over the limits.
 */
export function checkZip(bytes: Uint8Array, limits: { maxZipEntries: number; maxZipUncompressedBytes: number }): void {
  let entries = 0;
  let total = 0;
  let overEntries = false;
  try {
    unzipSync(bytes, {
      filter(entry) {
        entries += 1;
        total += entry.originalSize;
        if (entries > limits.maxZipEntries) overEntries = true;
        return false;
      },
    });
  } catch {
    throw new CaptureRejected('extraction_failed', 'the file is a corrupt or truncated zip container');
  }
  if (overEntries) throw new CaptureRejected('too_large', `the zip container holds ${entries} entries; at most ${limits.maxZipEntries}`);
  if (total > limits.maxZipUncompressedBytes) {
    throw new CaptureRejected('too_large', `the zip container inflates to ${total} bytes; at most ${limits.maxZipUncompressedBytes}`);
  }
}
