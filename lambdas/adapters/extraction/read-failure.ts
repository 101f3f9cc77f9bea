import { BackendUnavailableError, CaptureRejected } from '../../core/errors.js';

/**
 * What a reader's failure means for the capture: its own reject or a backend
 * outage as they are; a parser out of stack (it recurses into each level of
 * a structure: 10^5 nested tags) is over a limit; anything else a parser
 * throws means it met a file it cannot read.
 */
export function asReadFailure(error: unknown): CaptureRejected | BackendUnavailableError {
  if (error instanceof CaptureRejected || error instanceof BackendUnavailableError) return error;
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new CaptureRejected('too_large', 'the file nests deeper than its reader can follow (the extraction limit)');
  }
  return new CaptureRejected('extraction_failed', 'the file could not be read as its type');
}
