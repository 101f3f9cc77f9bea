import { chunkText, countLines } from './chunking.js';
import { CaptureRejected } from './errors.js';
import { itemKindOf } from './filter-subject.js';
import { putAllUnderGeneration, putUnderGeneration } from './generations.js';
import type { DocumentRecord, IndexItem, LibraryRef, Passage } from './model.js';
import type { BlobStore, DocumentStore, SearchIndex } from './ports.js';
import { removeDocument } from './removal.js';
import { finishReplacement, olderVersions, supersededBy } from './replacement.js';
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
  // A replacement a newer capture of its source_ref came after is no version any more: it goes, as if deleted.
  if (doc.replacing && (await supersededBy(deps, doc))) {
    await removeDocument(deps, doc);
    return null;
  }
  const item = indexItemOf(doc, known);
  const replaced =
    doc.replacing && doc.sourceRef !== null
      ? await olderVersions(deps, ref, doc.sourceRef, doc.id, { createdAt: doc.createdAt, id: doc.id })
      : [];
  const stands = await putUnderGeneration(
    deps,
    ref,
    item,
    generation,
    doc.id,
    replaced.length ? { replaces: replaced.map((d) => d.id) } : undefined,
  );
  if (!stands) {
    // Deleted meanwhile: the old versions, already out of the index, go all the same (as the caller asked).
    if (replaced.length) await finishReplacement(deps, doc, replaced);
    return null;
  }
  await recordIndexed(deps, ref, doc, await deps.documents.get(ref, doc.id), known, item.passages);
  // The index has switched: a failure from here on must not roll the new version back (a reader would find
  // neither). The ingestion worker finishes the switch when it takes the document's job (IngestWorker.next).
  if (doc.replacing) await finishReplacement(deps, doc, replaced).catch(() => undefined);
  await deps.spend.recordCapture({ tenantId: ref.tenantId, at, ocrPages: known.ocrPages });
  return { passages: item.passages, replaced: replaced.length };
}

/**
 * indexWords for several claimed documents of one library, none of them a
 * replacement (a batch's texts): their items are written at once where the
 * index can (one commit for all), under the same generation rule. Returns
 * each one's passages, or null when it was deleted meanwhile;
 * LibraryErasedError when the library was erased. The caller charges the
 * captures once the whole group stands (core/capture-group.ts).
 */
export async function indexWordsOfGroup(
  deps: { index: SearchIndex & Required<Pick<SearchIndex, 'putMany'>>; documents: DocumentStore },
  ref: LibraryRef,
  group: ReadonlyArray<{ doc: DocumentRecord; known: KnownText }>,
  generation: string,
): Promise<Array<Passage[] | null>> {
  if (group.some(({ doc }) => doc.replacing)) throw new Error('a replacement is indexed on its own (indexWords)');
  const items = group.map(({ doc, known }) => indexItemOf(doc, known));
  const records = await putAllUnderGeneration(deps, ref, items, generation);
  const indexed: Array<Passage[] | null> = [];
  for (const [k, { doc, known }] of group.entries()) {
    const latest = records[k] ?? null;
    if (latest) await recordIndexed(deps, ref, doc, latest, known, items[k]!.passages);
    indexed.push(latest ? items[k]!.passages : null);
  }
  return indexed;
}

/** A document's entry in the index: its text and passages, no vectors yet. */
function indexItemOf(doc: DocumentRecord, known: KnownText): IndexItem & { passages: Passage[] } {
  return {
    itemId: doc.id,
    kind: itemKindOf(known.kind),
    title: doc.title,
    sourceRef: doc.sourceRef,
    contentDate: doc.createdAt,
    text: known.text,
    passages: chunkText(known.text),
    vectors: [],
    metadata: doc.metadata,
    documentKind: known.kind,
    contentType: known.contentType,
  };
}

/**
 * A document whose text the index holds though its record never learned it
 * (a capture cut off between its index write and its record's): the record
 * learns it from the indexed text, as the capture would have written it
 * (its kind, media type and pages were known when it was claimed).
 */
export async function recordIndexedText(
  deps: { index: SearchIndex; documents: DocumentStore },
  doc: DocumentRecord,
  text: string,
): Promise<void> {
  const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
  const known: KnownText = {
    text,
    kind: doc.kind,
    contentType: doc.contentType,
    pageCount: doc.pageCount,
    ocrPages: 0,
  };
  await recordIndexed(deps, ref, doc, await deps.documents.get(ref, doc.id), known, chunkText(text));
}

/**
 * Once a document's item stands in the index: a PATCH that raced the write
 * is carried over (`latest`, the record read after the write), and the
 * record learns its counts.
 */
async function recordIndexed(
  deps: { index: SearchIndex; documents: DocumentStore },
  ref: LibraryRef,
  doc: DocumentRecord,
  latest: DocumentRecord | null,
  known: KnownText,
  passages: Passage[],
): Promise<void> {
  // A PATCH that came between reading the record and this write found no index entry to change: the record has it.
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
}
