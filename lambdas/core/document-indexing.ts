import type { SearchIndex } from '../ports.js';
import type { DocumentRecord, LibraryRef, Passage } from './model.js';
import type { CaptureSpend } from './usage.js';

/**
 * The last steps before a claimed document is marked ready, the same for an
 * inline capture and a queued ingest: its text goes into the index, then it
 * is charged to its tenant. A charge the ledger cannot record throws here,
 * so the caller undoes the capture: nothing becomes visible for free.
 */
export async function indexAndCharge(
  deps: { index: SearchIndex; onCaptured?: (event: CaptureSpend) => Promise<void> },
  ref: LibraryRef,
  doc: Pick<DocumentRecord, 'id' | 'title' | 'sourceRef' | 'createdAt'>,
  content: { kind: 'text' | 'file' | 'image'; text: string; passages: readonly Passage[]; vectors: readonly Float32Array[]; ocrPages: number; at: string },
): Promise<void> {
  await deps.index.put(ref, {
    itemId: doc.id,
    kind: content.kind === 'image' ? 'image' : 'file_excerpt',
    title: doc.title,
    sourceRef: doc.sourceRef,
    contentDate: doc.createdAt,
    text: content.text,
    passages: content.passages,
    vectors: content.vectors,
  });
  await deps.onCaptured?.({ tenantId: ref.tenantId, at: content.at, ocrPages: content.ocrPages, embeddingTexts: content.passages.map((p) => p.text) });
}
