/** A snippet line as grep and chat sources number it: "12: the line text". */
const NUMBERED = /^(\d+): ?(.*)$/s;

/** A grep snippet's line text, without its "N: " prefix. */
export function grepLineText(snippet: string): string {
  return NUMBERED.exec(snippet)?.[2] ?? snippet;
}

/** The numbered lines of a chat source's snippet ("12: ...\n13: ..."). */
export function numberedLines(snippet: string): { line: number | null; text: string }[] {
  return snippet.split('\n').map((row) => {
    const match = NUMBERED.exec(row);
    return match ? { line: Number(match[1]), text: match[2]! } : { line: null, text: row };
  });
}

/** The lines a chat source cites, first and last (null when its snippet carries no numbers). */
export function citedSpan(snippet: string): { first: number; last: number } | null {
  const numbers = numberedLines(snippet)
    .map((row) => row.line)
    .filter((line): line is number => line !== null);
  return numbers.length ? { first: Math.min(...numbers), last: Math.max(...numbers) } : null;
}

/** "line 3" or "lines 3–5". */
export function spanLabel(span: { first: number; last: number }): string {
  return span.first === span.last ? `line ${span.first}` : `lines ${span.first}–${span.last}`;
}
