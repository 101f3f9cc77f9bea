import { documentBlobs, type Placement } from './bucket/document-blobs.js';
import { serviceBlobKey } from './bucket/placement.js';
import { firstNonBlankLine } from './chunking.js';
import { newId } from './ids.js';
import { LIMITS } from './limits.js';
import type { Metadata } from './metadata.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { BlobStore, CallerBuckets, Clock, DocumentStore } from './ports.js';

/** What the caller said about a capture besides its content (validated by http/schemas.ts). */
export interface CaptureLabels {
  title?: string;
  filename?: string;
  sourceRef?: string;
  /** The new version of the document at sourceRef: claimed `replacing` (core/replacement.ts). */
  replaceSourceRef?: boolean;
  metadata?: Metadata;
}

/** What the service knows of a payload when it claims it. */
export interface ClaimedContent {
  sha256: string;
  sizeBytes: number;
  kind: DocumentRecord['kind'];
  contentType: string;
  /** The text when it is known now (a text push, a text file); null when extraction is queued. */
  text: string | null;
  pageCount: number | null;
  /** Whether raw bytes are kept (files), so the record names where. */
  hasBytes: boolean;
}

/** The one place a document record is assembled: every capture path, inline or queued, claims one of these. */
export function newDocumentRecord(
  ref: LibraryRef,
  labels: CaptureLabels,
  content: ClaimedContent,
  createdAt: string,
  placement?: Placement,
): DocumentRecord {
  const id = newId('file');
  const stored = content.hasBytes ? (placement?.storage ?? 'service') : 'service';
  return {
    id,
    tenantId: ref.tenantId,
    endUserId: ref.endUserId,
    title: defaultTitle(labels, content.text ?? ''),
    filename: labels.filename ?? null,
    contentType: content.contentType,
    sourceRef: labels.sourceRef ?? null,
    sizeBytes: content.sizeBytes,
    sha256: content.sha256,
    kind: content.kind,
    status: 'processing',
    createdAt,
    storage: stored,
    lineCount: 0,
    pageCount: content.pageCount,
    blobKey: !content.hasBytes ? null : placement ? placement.blobKey(id) : serviceBlobKey(ref.tenantId, id),
    passageCount: null,
    passagesEmbedded: 0,
    failureReason: null,
    metadata: labels.metadata ?? {},
    ...(labels.replaceSourceRef && labels.sourceRef !== undefined ? { replacing: true } : {}),
  };
}

function defaultTitle(labels: CaptureLabels, text: string): string {
  if (labels.title?.trim()) return labels.title;
  if (labels.filename) return labels.filename;
  // A line of the text as a title: a run of control characters (a tab, a NUL) and spaces is one space, as a given
  // title holds no control character.
  return firstNonBlankLine(text).replace(SPACES_AND_CONTROLS, ' ').trim().slice(0, LIMITS.titleChars) || 'Untitled';
}

const SPACES_AND_CONTROLS = /[\s\p{Cc}]+/gu;

/** A won claim names the library generation it holds in (its later writes are conditioned on it). */
export type ClaimOutcome = { claimed: true; generation: string } | { claimed: false; existing: DocumentRecord };

/**
 * The claim step, shared by every capture path: the bytes are stored, the
 * library touched, and the (library, sha256) identity claimed; a lost claim
 * (a concurrent identical capture won) removes the bytes written for it. Any
 * failure undoes what this step wrote and rethrows; a library erased between
 * the touch and the claim throws LibraryErasedError (core/generations.ts).
 */
export async function claimDocument(
  deps: { documents: DocumentStore; blobs: BlobStore; buckets?: CallerBuckets; clock: Clock },
  doc: DocumentRecord,
  bytes: Uint8Array | null,
): Promise<ClaimOutcome> {
  const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
  const blobs = documentBlobs(deps);
  let blobWritten = false;
  try {
    if (doc.blobKey && bytes) {
      await blobs.put(doc, bytes);
      blobWritten = true;
    }
    const generation = await deps.documents.touchLibrary(ref, deps.clock.now());
    const claim = await deps.documents.claim(doc, generation);
    if (!claim.claimed && blobWritten) await blobs.delete(doc);
    return claim.claimed ? { claimed: true, generation } : claim;
  } catch (error) {
    if (blobWritten) await blobs.delete(doc).catch(() => undefined);
    throw error;
  }
}
