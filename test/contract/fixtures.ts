import { newId } from '../../lambdas/core/ids.js';
import type { DocumentRecord, IndexItem, LibraryRef } from '../../lambdas/core/model.js';

let tick = 0;
/** Strictly increasing timestamps in the contract's format. */
export function timestamp(): string {
  tick += 1;
  const base = Date.UTC(2026, 10, 22, 6, 0, 0) + tick;
  return `${new Date(base).toISOString().slice(0, 23)}000`;
}

export function documentRecord(ref: LibraryRef, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const id = newId('file');
  return {
    id,
    tenantId: ref.tenantId,
    endUserId: ref.endUserId,
    title: 'A title',
    filename: null,
    contentType: 'text/plain; charset=utf-8',
    sourceRef: null,
    sizeBytes: 10,
    sha256: id.padEnd(64, '0').slice(0, 64),
    kind: 'text',
    status: 'ready',
    createdAt: timestamp(),
    storage: 'service',
    lineCount: 1,
    pageCount: null,
    blobKey: null,
    passageCount: 1,
    passagesEmbedded: 1,
    failureReason: null,
    metadata: {},
    ...overrides,
  };
}

/** A unit vector pointing mostly along one axis, so nearest neighbours are predictable. */
export function axisVector(dimensions: number, axis: number, wobble = 0): Float32Array {
  const v = new Float32Array(dimensions).fill(0.01);
  v[axis % dimensions] = 1;
  v[(axis + 1) % dimensions] = wobble;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export function indexItem(text: string, vector: Float32Array, overrides: Partial<IndexItem> = {}): IndexItem {
  const lines = text.split('\n');
  return {
    itemId: newId('file'),
    kind: 'file_excerpt',
    title: 'A title',
    sourceRef: null,
    contentDate: timestamp(),
    text,
    passages: [{ ordinal: 0, lineStart: 1, lineEnd: lines.length, text }],
    vectors: [vector],
    ...overrides,
  };
}
