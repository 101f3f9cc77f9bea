/**
 * Tidies text a converter produced (HTML, DOCX, PDF, OCR): one newline style,
 * no trailing spaces, at most one blank line in a row, no blank edges.
 * Text files themselves are never passed here: their lines must stay the file's lines.
 * Linear on any text: each trailing run is matched from its first character only (the
 * lookbehinds), where /[ \t\f\v]+$/ retried a long run of spaces from each of its positions.
 */
export function tidyLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(?<![ \t\f\v])[ \t\f\v]+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|(?<!\n)\n+$/g, '');
}
