import { sourceThreadScript } from '../../source-thread-script.js';
import type { ReaderMode } from './protocol.js';

/**
 * The reader thread's script when the service runs from its TypeScript
 * sources (bundled once per process: source-thread-script.ts). The AWS
 * functions ship the same bundle, built at synth (lib/functions.ts).
 */
export function sourceReaderThread(mode: ReaderMode): Promise<URL> {
  return sourceThreadScript(new URL(`./${mode}-thread.ts`, import.meta.url));
}
