import { convert, type HtmlToTextOptions } from 'html-to-text';
import { tidyLines } from './normalize.js';

/**
 * Visible text of an HTML page: scripts, styles, templates and images
 * dropped; each block element (paragraph, heading, list item, div, table row)
 * on its own line. html-to-text parses the page with htmlparser2.
 */
const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  decodeEntities: true,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'template', format: 'skip' },
    { selector: 'svg', format: 'skip' },
    { selector: 'head', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => ({ selector: h, options: { uppercase: false } })),
    // A table row on one line, its cells side by side.
    {
      selector: 'table',
      format: 'dataTable',
      options: { colSpacing: 3, maxColumnWidth: 100_000, uppercaseHeaderCells: false },
    },
  ],
};

export function htmlToText(html: string): string {
  return tidyLines(convert(html, OPTIONS));
}
