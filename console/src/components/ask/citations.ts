// Imported by the browser bundle and by the chat test (Node's resolution): hence the .js extension below.
import type { ChatResponse } from '../../../../client/src/index.js';
import { numberedLines } from './lines.js';

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

const normalize = (text: string) => text.replace(/…/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/** A source's cited lines as one run of text, to look a quote up in. */
const sourceText = (source: Source) =>
  normalize(
    numberedLines(source.snippet)
      .map((row) => row.text)
      .join(' '),
  );

/** Without its trailing spaces and punctuation (a loop, not a regex: a regex anchored at the end rescans from every start). */
function trimEndPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && ' \t\n.,;:'.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * The words a marker stands after: its sentence, without the reply's "From
 * your library:" or a list's dash; a quote cut with an ellipsis, by its
 * longest piece.
 */
function quoteBefore(text: string): string {
  const sentence = (text.split(/\n|From your library:|Also relevant:/).pop() ?? '')
    .replace(/^\s*[-*•]\s*/, '')
    .trimEnd();
  return trimEndPunctuation(sentence)
    .split('…')
    .map(normalize)
    .reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
}

/**
 * Which source each passage number of a reply's markers is. The reply's
 * `[n]` names the n-th passage the answerer was given, while `sources` has
 * one entry per cited document, in the order first cited, and the response
 * does not say which passages each holds. So: a marker after a quote goes
 * to the source whose lines hold that quote (the offline answerer quotes
 * verbatim); the markers left go, in the order they first appear, to the
 * sources left, in order (the order both were written in).
 */
export function citationSources(reply: string, sources: readonly Source[]): Map<number, number> {
  const mapped = new Map<number, number>();
  if (!sources.length) return mapped;
  const texts = sources.map(sourceText);
  const parts = splitReply(reply);
  parts.forEach((part, i) => {
    if (!('marker' in part) || part.passages.length !== 1 || mapped.has(part.passages[0]!)) return;
    const before = parts[i - 1];
    const piece = before && 'text' in before ? quoteBefore(before.text) : '';
    if (piece.length < 8) return;
    const found = texts.findIndex((text) => text.includes(piece));
    if (found >= 0) mapped.set(part.passages[0]!, found);
  });
  const taken = new Set(mapped.values());
  const free = sources.map((_, i) => i).filter((i) => !taken.has(i));
  for (const part of parts) {
    if (!('marker' in part)) continue;
    for (const n of part.passages) {
      if (mapped.has(n) || !free.length) continue;
      mapped.set(n, free.shift()!);
    }
  }
  return mapped;
}
