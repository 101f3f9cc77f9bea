/**
 * Tidies text a converter produced (HTML, DOCX, PDF, OCR): one newline style,
 * no trailing spaces, at most one blank line in a row, no blank edges.
 * Text files themselves are never passed here: their lines must stay the file's lines.
 */
export function tidyLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v]+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
