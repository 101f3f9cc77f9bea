import { chunkText, countLines } from './chunking.js';
import { CaptureRejected } from './errors.js';
import { itemKindOf } from './filter-subject.js';
import { putUnderGeneration } from './generations.js';
import type { DocumentRecord, LibraryRef, Passage } from './model.js';
import type { BlobStore, DocumentStore, SearchIndex } from './ports.js';
import { finishReplacement, olderVersions } from './replacement.js';
import type { PipelineSpend } from './usage.js';

/** A document's text as extraction (or the push itself) gave it. */
export interface KnownText {
  text: string;
  kind: DocumentRecord['kind'];
  contentType: string;
  pageCount: number | null;
  ocrPages: number;
}

/** A file read to no text at all (only whitespace) is rejected, whichever path read it: in its request, by the queue, or a dry run predicting them. */
export function requireText(text: string): void {
  if (!text.trim()) throw new CaptureRejected('empty_content', 'no text could be extracted from the file');
}

/**
 * The step every capture path takes once a claimed document's text is
 * known: the text and its passages go into the index without vectors (words
 * and grep find it from now on; meaning once the passages are embedded),
 * the record learns its line and passage counts, and the capture is charged
 * to its tenant. Returns the passages, which the embedding steps then take;
 * null when the document was deleted meanwhile (nothing of it stays). The
 * write is conditioned on the library generation the document was claimed
 * in: LibraryErasedError when the library was erased meanwhile (see
 * core/generations.ts).
 *
 * A `replacing` document (core/replacement.ts) replaces its older versions
 * here: the same index write that puts its text removes theirs, then their
 * bytes and records go. `replaced` counts them.
 */
/** Whether a PATCH changed what the index keeps of a document (title, source_ref, metadata). */
const labelsChanged = (a: DocumentRecord, b: DocumentRecord) =>
  a.title !== b.title || a.sourceRef !== b.sourceRef || JSON.stringify(a.metadata) !== JSON.stringify(b.metadata);

export async function indexWords(
  deps: { index: SearchIndex; documents: DocumentStore; blobs: BlobStore; spend: PipelineSpend },
  doc: DocumentRecord,
  known: KnownText,
  at: string,
  generation: string,
): Promise<{ passages: Passage[]; replaced: number } | null> {
  const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
  const passages = chunkText(known.text);
  const replaced =
    doc.replacing && doc.sourceRef !== null
      ? await olderVersions(deps, ref, doc.sourceRef, doc.id, { createdAt: doc.createdAt, id: doc.id })
      : [];
  const stands = await putUnderGeneration(
    deps,
    ref,
    {
      itemId: doc.id,
      kind: itemKindOf(known.kind),
      title: doc.title,
      sourceRef: doc.sourceRef,
      contentDate: doc.createdAt,
      text: known.text,
      passages,
      vectors: [],
      metadata: doc.metadata,
      documentKind: known.kind,
      contentType: known.contentType,
    },
    generation,
    doc.id,
    replaced.length ? { replaces: replaced.map((d) => d.id) } : undefined,
  );
  if (!stands) {
    // Deleted meanwhile: the old versions, already out of the index, go all the same (as the caller asked).
    if (replaced.length) await finishReplacement(deps, doc, replaced);
    return null;
  }
  // A PATCH that came between reading the record and this write found no index entry to change: the record has it.
  const latest = await deps.documents.get(ref, doc.id);
  if (latest && labelsChanged(doc, latest)) {
    await deps.index.updateItem(ref, doc.id, {
      title: latest.title,
      sourceRef: latest.sourceRef,
      metadata: latest.metadata,
    });
  }
  await deps.documents.recordExtraction(ref, doc.id, {
    kind: known.kind,
    contentType: known.contentType,
    lineCount: countLines(known.text),
    pageCount: known.pageCount,
    passageCount: passages.length,
  });
  // The index has switched: a failure from here on must not roll the new version back (a reader would find
  // neither). The ingestion worker finishes the switch when it takes the document's job (IngestWorker.next).
  if (doc.replacing) await finishReplacement(deps, doc, replaced).catch(() => undefined);
  await deps.spend.recordCapture({ tenantId: ref.tenantId, at, ocrPages: known.ocrPages });
  return { passages, replaced: replaced.length };
}
