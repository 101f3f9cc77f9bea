import { LIMITS } from '../limits.js';
import type { Metadata } from '../metadata.js';
import type { Citation, GroundingPassage } from '../ports.js';
import type { CitedFact } from './artifacts.js';
import { numberedSnippet } from './lines.js';
/** A passage as handed to the model, with the id of the document it came from. */
export interface GroundedPassage extends GroundingPassage {
  document: string;
  /** The document's metadata, which its source carries. */
  metadata?: Metadata;
}

export interface ChatSource {
  kind: 'file';
  title: string;
  snippet: string;
  file_id: string;
  metadata: Metadata;
  /** The reply's `[n]` markers that cite this document, each with the lines it cites (ascending). */
  markers: { marker: number; lines: number[] }[];
}

interface ResolvedCitation {
  passage: GroundedPassage;
  lines: number[];
  quote: string | undefined;
}

/** Keeps the citations that name a supplied passage, with their lines inside it (default: all of it). */
function resolve(passages: readonly GroundedPassage[], citations: readonly Citation[]): ResolvedCitation[] {
  const byNumber = new Map(passages.map((p) => [p.number, p]));
  const resolved: ResolvedCitation[] = [];
  for (const citation of citations) {
    const passage = byNumber.get(citation.passage);
    if (!passage) continue;
    const last = passage.lineStart + passage.lines.length - 1;
    const all = passage.lines.map((_, i) => passage.lineStart + i);
    const inside = (citation.lines ?? []).filter((n) => Number.isInteger(n) && n >= passage.lineStart && n <= last);
    const lines = (inside.length ? inside : all).filter((n) => passage.lines[n - passage.lineStart]!.trim());
    resolved.push({ passage, lines: lines.length ? lines : all, quote: citation.quote });
  }
  return resolved;
}

/** One source per cited document, in the order first cited; the snippet holds the cited lines with their numbers. */
export function buildSources(passages: readonly GroundedPassage[], citations: readonly Citation[]): ChatSource[] {
  const byDocument = new Map<
    string,
    { title: string; metadata: Metadata; lines: Map<number, string>; markers: Map<number, Set<number>>; focus?: string }
  >();
  for (const { passage, lines, quote } of resolve(passages, citations)) {
    const itemId = passage.document;
    const entry = byDocument.get(itemId) ?? {
      title: passage.title ?? '',
      metadata: passage.metadata ?? {},
      lines: new Map<number, string>(),
      markers: new Map<number, Set<number>>(),
    };
    for (const n of lines) entry.lines.set(n, passage.lines[n - passage.lineStart]!);
    const marked = entry.markers.get(passage.number) ?? new Set<number>();
    for (const n of lines) marked.add(n);
    entry.markers.set(passage.number, marked);
    entry.focus ??= quote;
    byDocument.set(itemId, entry);
  }
  return [...byDocument.entries()].map(([fileId, entry]) => ({
    kind: 'file',
    title: entry.title,
    snippet: numberedSnippet(
      [...entry.lines.entries()].sort((a, b) => a[0] - b[0]).map(([line, text]) => ({ line, text })),
      LIMITS.snippetChars,
      entry.focus,
    ),
    file_id: fileId,
    metadata: entry.metadata,
    markers: [...entry.markers.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([marker, lines]) => ({ marker, lines: [...lines].sort((a, b) => a - b) })),
  }));
}

/** The facts the reply rests on: each quote, or the cited lines. */
export function citedFacts(passages: readonly GroundedPassage[], citations: readonly Citation[]): CitedFact[] {
  const facts: CitedFact[] = [];
  for (const { passage, lines, quote } of resolve(passages, citations)) {
    const text = (quote ?? lines.map((n) => passage.lines[n - passage.lineStart]!).join(' '))
      .replace(/\s+/g, ' ')
      .trim();
    if (!text || facts.some((f) => f.text === text)) continue;
    facts.push({ text, title: passage.title ?? '', fileId: passage.document, lines });
  }
  return facts;
}
