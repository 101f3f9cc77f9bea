/** Links inside the console (hash routes), in one place: the page table imports the pages, so pages cannot import it. */

/** A document's route (for the router's links), optionally at a line. */
export function documentPath(id: string, line?: number): string {
  return `/documents/${encodeURIComponent(id)}${line ? `?line=${line}` : ''}`;
}

/** The same as an `href`: what search, grep and chat citations open. */
export function documentHref(id: string, line?: number): string {
  return `#${documentPath(id, line)}`;
}
