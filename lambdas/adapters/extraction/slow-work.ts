import { sniff } from './sniff.js';

/**
 * Whether extracting these bytes is slow work, queued rather than read in
 * the capture request: what sniff reads as a PDF, a DOCX or an image (their
 * readers parse, render and OCR), or any file over `inlineMaxBytes`. Text
 * formats under it, and what sniff refuses (refused at once, inline), are not.
 */
export async function isSlowWork(bytes: Uint8Array, inlineMaxBytes: number): Promise<boolean> {
  if (bytes.byteLength > inlineMaxBytes) return true;
  try {
    return (await sniff(bytes)).family !== 'text';
  } catch {
    return false;
  }
}
