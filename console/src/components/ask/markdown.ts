/**
 * The little Markdown the service's creations use (lambdas/core/chat/artifacts.ts):
 * a pipe table (`| a | b |`, a `| --- |` rule, cells with `\|` for a pipe) and
 * a list (`# Title`, then `- item` lines). Read into data, never into HTML.
 */

export interface MarkdownTable {
  header: string[];
  rows: string[][];
}

/** The cells of one `| a | b |` row; `\|` is a pipe inside a cell. */
function cells(row: string): string[] {
  const inner = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** A pipe table, or null when the text is not one. */
export function parseMarkdownTable(markdown: string): MarkdownTable | null {
  const rows = markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'));
  if (rows.length < 2 || !/^\|?\s*:?-{3,}/.test(rows[1]!)) return null;
  const header = cells(rows[0]!);
  return { header, rows: rows.slice(2).map((row) => cells(row)) };
}

export type MarkdownBlock = { heading: string } | { items: string[] } | { text: string };

/** A list document as blocks: headings, runs of `- ` items, and other lines. */
export function parseMarkdownBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    // One space after the marker, then the text trimmed (a `\s+` before `.*` could trade characters with it).
    const heading = /^#{1,6}\s(.*)$/.exec(line);
    const item = /^[-*]\s(.*)$/.exec(line);
    const last = blocks[blocks.length - 1];
    if (heading) blocks.push({ heading: heading[1]!.trim() });
    else if (item && last && 'items' in last) last.items.push(item[1]!.trim());
    else if (item) blocks.push({ items: [item[1]!.trim()] });
    else blocks.push({ text: line });
  }
  return blocks;
}
