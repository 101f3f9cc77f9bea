import { excerptAround, splitLines } from '../chunking.js';
import type { LibraryRef, Passage } from '../model.js';
import type { SearchIndex } from '../ports.js';

/** A line longer than this is cut to the part the passage covers. */
const LONG_LINE = 600;

/**
 * The document's own lines, read from the index (the same text grep reads),
 * so every line number a chat cites is the one grep reports.
 */
export async function readDocumentLines(
  index: SearchIndex,
  ref: LibraryRef,
  itemId: string,
  generation: string,
): Promise<string[] | null> {
  const text = await index.documentText(ref, itemId, generation);
  return text === null ? null : splitLines(text);
}

/**
 * The lines of a passage, numbered as in the document. A very long document
 * line (a paragraph without breaks) is narrowed to the piece the passage holds.
 */
export function passageLines(
  documentLines: readonly string[] | null,
  passage: Passage,
): { lineStart: number; lines: string[] } {
  const pieces = splitLines(passage.text);
  if (!documentLines)
    return { lineStart: passage.lineStart, lines: passage.lineStart === passage.lineEnd ? [pieces.join(' ')] : pieces };
  const lines = documentLines.slice(passage.lineStart - 1, passage.lineEnd).map((line) => {
    if (line.length <= LONG_LINE) return line;
    if (passage.lineStart === passage.lineEnd) return pieces.join(' ');
    const piece = pieces.filter((p) => line.includes(p)).sort((a, b) => b.length - a.length)[0];
    return piece ?? excerptAround(line, 0, 0, LONG_LINE);
  });
  return { lineStart: passage.lineStart, lines };
}

/**
 * A cited snippet: the given lines, each prefixed with its number ("12: ..."),
 * at most `max` characters; a long line is cut around `focus` when given.
 */
export function numberedSnippet(
  lines: ReadonlyArray<{ line: number; text: string }>,
  max: number,
  focus?: string,
): string {
  const out: string[] = [];
  let used = 0;
  for (const { line, text } of lines) {
    const prefix = `${line}: `;
    const room = max - used - prefix.length - (out.length ? 1 : 0);
    if (room < 20) break;
    const at = focus ? Math.max(0, text.indexOf(focus)) : 0;
    const cut = excerptAround(text, at, focus && text.includes(focus) ? focus.length : 0, room);
    out.push(prefix + cut);
    used += prefix.length + cut.length + (out.length > 1 ? 1 : 0);
  }
  return out.join('\n');
}
