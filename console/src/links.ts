/** Links inside the console (hash routes), in one place: the page table imports the pages, so pages cannot import it. */

/** A document's route (for the router's links), optionally at a line, or at lines `line` to `to` (all marked). */
export function documentPath(id: string, line?: number, to?: number): string {
  const at = line ? `?line=${line}${to && to > line ? `&to=${to}` : ''}` : '';
  return `/documents/${encodeURIComponent(id)}${at}`;
}

/** The same as an `href`: what search, grep and chat citations open. */
export function documentHref(id: string, line?: number, to?: number): string {
  return `#${documentPath(id, line, to)}`;
}
