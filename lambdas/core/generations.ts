import { LibraryErasedError } from './errors.js';
import type {
  DocumentChanges,
  DocumentRecord,
  GrepCandidate,
  IndexItem,
  ItemKind,
  LibraryRef,
  Passage,
  PassageHit,
} from './model.js';
import type { Clock, DocumentStore, GrepScan, KeywordQuery, PutOptions, SearchIndex, VectorQuery } from './ports.js';

/**
 * Library generations: the rule that makes an erasure final against writes
 * in flight (docs/api-notes.md, "Erasure"). A library's record carries a
 * generation, new each time the library is created. Every capture and chat
 * write names the generation it began under; an erasure ends the generation
 * first (the library record goes, and with it the generation), then removes
 * what was written under it. A write under an ended generation is refused
 * where the store can check it atomically (the claim; the local index), and
 * checked again right after it everywhere else: a writer that finds its
 * generation ended removes what it wrote and (a capture) starts afresh in
 * the library's next generation. Reads name the live generation, so a write
 * whose writer died before that check is never found (ports.ts,
 * GenerationScoped).
 */

/**
 * Puts an item under a generation, then checks that the generation is still
 * the library's (and, for a document's item, that the document is still
 * there). Returns true when the item stands; false when its document was
 * deleted meanwhile (the item is removed again). Throws LibraryErasedError
 * when the library was erased meanwhile (the item is removed again).
 *
 * Why the check after the write closes the race: the erasure ends the
 * generation, then removes the items; the writer writes, then reads the
 * generation. Either the writer's read comes first (so its write came before
 * the erasure's removal, which removes it) or the read sees the generation
 * ended (and the writer removes its own write). The same holds for a
 * document's deletion, which removes the record before (and after) its items.
 */
export async function putUnderGeneration(
  deps: { index: SearchIndex; documents: DocumentStore },
  ref: LibraryRef,
  item: IndexItem,
  generation: string,
  documentId?: string,
  options?: PutOptions,
): Promise<boolean> {
  await deps.index.put(ref, item, generation, options);
  if ((await deps.documents.libraryGeneration(ref)) !== generation) {
    await deps.index.remove(ref, item.itemId);
    throw new LibraryErasedError();
  }
  if (documentId !== undefined && !(await deps.documents.get(ref, documentId))) {
    await deps.index.remove(ref, item.itemId);
    return false;
  }
  return true;
}

/**
 * putUnderGeneration for several documents' items of one library (each
 * item's id is its document's), written in one write (SearchIndex.putMany):
 * the same rule, with the generation checked once after the write for all
 * of them. Returns, per item, its document's record read after the write,
 * or null when the document was deleted meanwhile (its item removed again).
 */
export async function putAllUnderGeneration(
  deps: { index: SearchIndex & Required<Pick<SearchIndex, 'putMany'>>; documents: DocumentStore },
  ref: LibraryRef,
  items: readonly IndexItem[],
  generation: string,
): Promise<Array<DocumentRecord | null>> {
  await deps.index.putMany(ref, items, generation);
  if ((await deps.documents.libraryGeneration(ref)) !== generation) {
    for (const item of items) await deps.index.remove(ref, item.itemId);
    throw new LibraryErasedError();
  }
  const records: Array<DocumentRecord | null> = [];
  for (const item of items) {
    const record = await deps.documents.get(ref, item.itemId);
    if (!record) await deps.index.remove(ref, item.itemId);
    records.push(record);
  }
  return records;
}

/** Tries a write in the library's current generation, again (once the library is created afresh) when an erasure ended it meanwhile. */
export async function inCurrentGeneration<T>(attempts: number, run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!(error instanceof LibraryErasedError) || attempt >= attempts) throw error;
    }
  }
}

/**
 * The index as a chat sees it: every item put lands in the library's current
 * generation (the library is touched for it, so created afresh when an
 * erasure came between the chat's start and its write). An erasure that
 * comes after the write removes it; one that comes between is never undone.
 */
export class GenerationalIndex implements SearchIndex {
  constructor(
    private readonly inner: SearchIndex,
    private readonly documents: DocumentStore,
    private readonly clock: Clock,
  ) {}

  async put(ref: LibraryRef, item: IndexItem, generation?: string, options?: PutOptions): Promise<void> {
    if (generation !== undefined) {
      await putUnderGeneration(
        { index: this.inner, documents: this.documents },
        ref,
        item,
        generation,
        undefined,
        options,
      );
      return;
    }
    await inCurrentGeneration(3, async () => {
      const current = await this.documents.touchLibrary(ref, this.clock.now());
      await putUnderGeneration(
        { index: this.inner, documents: this.documents },
        ref,
        item,
        current,
        undefined,
        options,
      );
    });
  }

  remove(ref: LibraryRef, itemId: string): Promise<void> {
    return this.inner.remove(ref, itemId);
  }
  updateItem(ref: LibraryRef, itemId: string, changes: DocumentChanges): Promise<boolean> {
    return this.inner.updateItem(ref, itemId, changes);
  }
  removeLibrary(ref: LibraryRef, generation?: string | null): Promise<Record<ItemKind, number>> {
    return this.inner.removeLibrary(ref, generation);
  }
  keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
    return this.inner.keywordSearch(ref, query);
  }
  vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
    return this.inner.vectorSearch(ref, query);
  }
  grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
    return this.inner.grepCandidates(ref, scan);
  }
  documentText(ref: LibraryRef, itemId: string, generation?: string): Promise<string | null> {
    return this.inner.documentText(ref, itemId, generation);
  }
  passagesWithoutVectors(
    ref: LibraryRef,
    itemId: string,
    options: { limit: number; skip?: ReadonlySet<number>; from?: number },
  ): Promise<Passage[]> {
    return this.inner.passagesWithoutVectors(ref, itemId, options);
  }
  attachPassageVectors(
    ref: LibraryRef,
    itemId: string,
    vectors: ReadonlyArray<{ ordinal: number; vector: Float32Array }>,
  ): Promise<boolean> {
    return this.inner.attachPassageVectors(ref, itemId, vectors);
  }
}
