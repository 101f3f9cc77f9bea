import type { DocumentStore, SearchIndex } from '../ports.js';
import { excerptAround, splitLines } from './chunking.js';
import { decodeCursor, encodeCursor, fingerprint, type Page } from './cursor.js';
import { LIMITS } from './limits.js';
import type { LibraryRef } from './model.js';

export interface GrepRequest {
  pattern: string;
  caseSensitive: boolean;
  fileId?: string;
  limit: number;
  cursor?: string;
}

export interface GrepResult {
  file_id: string;
  title: string | null;
  source_ref: string | null;
  line: number;
  snippet: string;
  content_date: string;
}

interface GrepPosition {
  createdAt: string;
  id: string;
  line: number;
}

const isGrepPosition = (v: unknown): v is GrepPosition =>
  typeof v === 'object' && v !== null &&
  typeof (v as GrepPosition).createdAt === 'string' &&
  typeof (v as GrepPosition).id === 'string' &&
  Number.isInteger((v as GrepPosition).line);

/**
 * Literal, exhaustive line matching. The index narrows the documents (a
 * superset of those containing the pattern); this checks every line of each,
 * so nothing is ever missed and nothing is a regular expression.
 */
export class GrepService {
  constructor(private readonly deps: { index: SearchIndex; documents: Pick<DocumentStore, 'libraryGeneration'> }) {}

  async grep(ref: LibraryRef, request: GrepRequest): Promise<Page<GrepResult>> {
    const scope = fingerprint(['grep', ref.tenantId, ref.endUserId, request.pattern, request.caseSensitive, request.fileId ?? null]);
    const position = decodeCursor(request.cursor, scope, isGrepPosition);
    const needle = request.caseSensitive ? request.pattern : request.pattern.toLowerCase();
    const found: Array<GrepResult & { position: GrepPosition }> = [];
    // Only the library's live generation is read (ports.ts, GenerationScoped); no library, nothing to read.
    const generation = await this.deps.documents.libraryGeneration(ref, { readOnly: true });
    if (generation === null) return { items: [], hasMore: false, nextCursor: null };

    const candidates = this.deps.index.grepCandidates(ref, {
      generation,
      pattern: request.pattern,
      caseSensitive: request.caseSensitive,
      itemId: request.fileId,
      startAt: position ? { createdAt: position.createdAt, id: position.id } : undefined,
    });
    scan: for await (const doc of candidates) {
      const resumeAfterLine = position && doc.itemId === position.id ? position.line : 0;
      const lines = splitLines(doc.text);
      for (let i = resumeAfterLine; i < lines.length; i++) {
        const line = lines[i]!;
        const at = (request.caseSensitive ? line : line.toLowerCase()).indexOf(needle);
        if (at < 0) continue;
        const prefix = `${i + 1}: `;
        found.push({
          file_id: doc.itemId,
          title: doc.title,
          source_ref: doc.sourceRef,
          line: i + 1,
          snippet: prefix + excerptAround(line, at, needle.length, LIMITS.snippetChars - prefix.length),
          content_date: doc.contentDate,
          position: { createdAt: doc.contentDate, id: doc.itemId, line: i + 1 },
        });
        if (found.length > request.limit) break scan;
      }
    }

    const hasMore = found.length > request.limit;
    const page = found.slice(0, request.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(({ position: _position, ...result }) => result),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(scope, last.position) : null,
    };
  }
}
