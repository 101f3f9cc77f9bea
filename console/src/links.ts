/** Links inside the console (hash routes), in one place: the page table imports the pages, so pages cannot import it. */

/** The hash link to a document, optionally at a line: what search, grep and chat citations open. */
export function documentHref(id: string, line?: number): string {
  return `#/documents/${encodeURIComponent(id)}${line ? `?line=${line}` : ''}`;
}
