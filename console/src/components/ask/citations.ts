// Imported by the browser bundle and by the chat test (Node's resolution): hence the .js extension below.
import type { ChatResponse } from '../../../../client/src/index.js';

type Source = ChatResponse['sources'][number];

/** A reply cut into text and citation markers (`[2]`, `[1, 3]`), each marker with the passage numbers it names. */
export type ReplyPart = { text: string } | { marker: string; passages: number[] };

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

export function splitReply(reply: string): ReplyPart[] {
  const parts: ReplyPart[] = [];
  let at = 0;
  for (const match of reply.matchAll(MARKER)) {
    if (match.index > at) parts.push({ text: reply.slice(at, match.index) });
    parts.push({ marker: match[0], passages: match[1]!.split(',').map((n) => Number(n.trim())) });
    at = match.index + match[0].length;
  }
  if (at < reply.length) parts.push({ text: reply.slice(at) });
  return parts;
}

/**
 * Which source each of a reply's `[n]` markers opens: the service says it,
 * each source listing the markers that cite it (`markers`). The console
 * numbers sources 1, 2, ... in their order, so `[n]` is shown as its source's
 * number.
 */
export function citationSources(sources: readonly Source[]): Map<number, number> {
  const mapped = new Map<number, number>();
  sources.forEach((source, index) => {
    for (const { marker } of source.markers ?? []) if (!mapped.has(marker)) mapped.set(marker, index);
  });
  return mapped;
}

/** The first line marker `n` cites in its source, if the source says. */
export function markerLine(source: Source, markers: readonly number[]): number | undefined {
  return source.markers?.find((m) => markers.includes(m.marker))?.lines[0];
}
