import { unzipSync } from 'fflate';
import { CaptureRejected } from '../core/errors.js';

/**
 * Decompression-bomb guard for zip containers (DOCX): reads the central
 * directory only (fflate's filter declines every entry, so nothing is
 * inflated) and refuses a file whose entry count or declared uncompressed
 * total is over the limits. Returns the entry names.
 */
export function checkZip(bytes: Uint8Array, limits: { maxZipEntries: number; maxZipUncompressedBytes: number }): string[] {
  const names: string[] = [];
  let total = 0;
  let overEntries = false;
  try {
    unzipSync(bytes, {
      filter(entry) {
        names.push(entry.name);
        total += entry.originalSize;
        if (names.length > limits.maxZipEntries) overEntries = true;
        return false;
      },
    });
  } catch {
    throw new CaptureRejected('extraction_failed', 'the file is a corrupt or truncated zip container');
  }
  if (overEntries) throw new CaptureRejected('too_large', `the zip container holds ${names.length} entries; at most ${limits.maxZipEntries}`);
  if (total > limits.maxZipUncompressedBytes) {
    throw new CaptureRejected('too_large', `the zip container inflates to ${total} bytes; at most ${limits.maxZipUncompressedBytes}`);
  }
  return names;
}
