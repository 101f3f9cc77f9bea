import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { documentBlobs } from './bucket/document-blobs.js';
import { CallerBucketUnavailableError } from './bucket/failures.js';
import {
  captureTextGroup,
  GROUP_TEXT_BYTES,
  GROUP_TEXTS,
  type GroupOutcome,
  type GroupText,
  pushedText,
  writesGroups,
} from './capture-group.js';
import { indexWords, type KnownText, requireText } from './document-indexing.js';
import { claimDocument, newDocumentRecord } from './document-record.js';
import {
  BackendUnavailableError,
  CaptureRejected,
  ExtractionDeferred,
  LibraryErasedError,
  type RejectCode,
} from './errors.js';
import { inCurrentGeneration } from './generations.js';
import { IngestWorker, type IngestWorkerDeps } from './ingest-worker.js';
import { LIMITS } from './limits.js';
import type { Metadata } from './metadata.js';
import type { DocumentRecord, LibraryRef } from './model.js';
import type { IngestQueue } from './ports.js';
import { removeDocument } from './removal.js';
import { replaceByExisting, replacedDetail } from './replacement.js';

/** One capture item after its shape was validated (types and lengths; see http/schemas.ts). */
export interface CaptureItem {
  text?: string;
  contentBase64?: string;
  filename?: string;
  contentType?: string;
  title?: string;
  sourceRef?: string;
  /** This capture is the new version of the document at `sourceRef` (core/replacement.ts). */
  replaceSourceRef?: boolean;
  /** Checked by checkMetadata (core/metadata.ts) before it gets here. */
  metadata?: Metadata;
}

/** The capture receipt, exactly as API.md publishes it. */
export interface CaptureReceipt {
  ok: boolean;
  status: 'created' | 'deduped' | 'rejected';
  dedup: boolean;
  detail: string;
  id: string | null;
  file_id: string | null;
  reject_code: RejectCode | null;
  retryable: boolean | null;
  source_ref: string | null;
}

export const rejectedReceipt = (code: RejectCode, detail: string): CaptureReceipt => ({
  ok: false,
  status: 'rejected',
  dedup: false,
  detail,
  id: null,
  file_id: null,
  reject_code: code,
  retryable: code === 'backend_unavailable',
  source_ref: null,
});

const acceptedReceipt = (status: 'created' | 'deduped', doc: DocumentRecord, detail: string): CaptureReceipt => ({
  ok: true,
  status,
  dedup: status === 'deduped',
  detail,
  id: doc.id,
  file_id: doc.id,
  reject_code: null,
  retryable: null,
  source_ref: doc.sourceRef,
});

export interface CaptureDeps extends IngestWorkerDeps {
  queue: IngestQueue;
  /**
   * The stack can read slow files in the request (locally, where the full
   * extractor is in process): a single capture on an idle machine is then
   * read at once, and a file that cannot be read is rejected with its code,
   * leaving nothing. Else (AWS) slow files always go to the queue.
   */
  extractInlineWhenIdle?: boolean;
}

/** How a capture is asked for: alone (a person or program waiting on it) or as one item of a batch. */
export interface CaptureOptions {
  /** A single capture: when the machine is idle and the work small, it is finished within the request. */
  interactive?: boolean;
  /**
   * When the receipt must be answered (milliseconds since the epoch): the
   * request's budget (API Gateway's 29 s, less a margin; see
   * http/endpoint.ts). Work done in the request (reading a file, embedding
   * its passages) is not waited for beyond `deadline - BUDGET_RESERVE_MS`:
   * the document goes to the queue instead and the receipt says
   * `processing`. A capture that starts with less than the reserve left is
   * not attempted (backend_unavailable, nothing stored). Absent: no budget.
   */
  deadline?: number;
}

/**
 * Time kept back from the request's budget for what must finish once
 * begun: storing the bytes, claiming the document, indexing its words and
 * queueing the job. Inline extraction and embedding stop this long before
 * the deadline.
 */
export const BUDGET_RESERVE_MS = 5_000;

/** What a piece of inline work came to within the budget: its value, or the budget ran out first (the work goes on unheeded). */
type WithinBudget<T> = { done: true; value: T } | { done: false };

/** Milliseconds the request may still spend on inline work (Infinity without a deadline). */
function inlineTimeLeft(options: CaptureOptions): number {
  return options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - BUDGET_RESERVE_MS - Date.now();
}

/**
 * Waits for `work` while the budget lasts. When the budget runs out first,
 * `work`'s signal is aborted (a file read stops) and the work is left to end
 * on its own (its failure is ignored: the caller has moved on to the queue,
 * which does the work again if it must).
 */
async function withinBudget<T>(
  work: (signal: AbortSignal) => Promise<T>,
  options: CaptureOptions,
): Promise<WithinBudget<T>> {
  const budget = new AbortController();
  const left = inlineTimeLeft(options);
  if (left === Number.POSITIVE_INFINITY) return { done: true, value: await work(budget.signal) };
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), Math.max(0, left));
  });
  const running = work(budget.signal);
  try {
    const outcome = await Promise.race([running.then((value) => ({ done: true as const, value })), outOfTime]);
    if (!outcome.done) {
      running.catch(() => undefined);
      budget.abort(new Error("the request's time budget ran out"));
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

export const OUT_OF_TIME_DETAIL =
  "the request's time budget ran out before this capture started; nothing was stored; send it again";

/** A single capture of at most this many passages, while the embedder is idle, is findable by meaning when its receipt returns. */
export const INLINE_EMBED_PASSAGES = 16;

/** An erasure of the library landing mid-capture sends the capture back to its start, this many times in all. */
const CAPTURE_ATTEMPTS = 3;

/** Standard base64 (RFC 4648, section 4), padding optional, no whitespace. Linear: safe on megabytes. */
function isBase64(encoded: string): boolean {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return false;
  const unpadded = withoutPadding(encoded);
  if (unpadded.length % 4 === 1) return false;
  return encoded.length === unpadded.length || encoded.length % 4 === 0;
}

/** The text without its trailing '='; (?<!=) matches a run from its first '=' only (linear on any text). */
const withoutPadding = (encoded: string) => encoded.replace(/(?<!=)=+$/, '');

const decodedLength = (encoded: string) => Math.floor((withoutPadding(encoded).length * 3) / 4);

interface Payload {
  bytes: Uint8Array;
  isText: boolean;
  sha256: string;
}

/**
 * Capture: validates and identifies the payload, claims the document, and
 * leaves the slow work to the ingestion worker (core/ingest-worker.ts).
 * The receipt returns once the document is durable: its text in the index
 * (a text push, or a file read in the request) or its bytes queued for
 * extraction. A small single capture on an idle machine is finished in the
 * request, so it is findable by meaning when its receipt returns.
 */
export class CaptureService {
  /** Concurrent captures of one payload in this process share one run (single flight). */
  private readonly inFlight = new Map<string, Promise<CaptureReceipt>>();
  /**
   * Single captures embedding within their request now. One at a time: a
   * second one would wait inside the embedder behind the first (eight
   * clients' captures took 1.9 s each that way), so it is queued and its
   * receipt returns at once instead.
   */
  private inlineEmbeds = 0;
  private readonly worker: IngestWorker;

  constructor(private readonly deps: CaptureDeps) {
    this.worker = new IngestWorker(deps);
  }

  /**
   * A batch's items, their receipts in the same order. Consecutive text
   * pushes to one library are captured together where the stores write
   * groups (core/capture-group.ts); every other item, and any the group
   * hands back, is captured alone, in order. The budget is checked before
   * each group: texts captured together start together, so none of them is
   * cut off by it once the group has begun.
   */
  async captureBatch(entries: readonly BatchEntry[], options: CaptureOptions = {}): Promise<CaptureReceipt[]> {
    const receipts: CaptureReceipt[] = [];
    const writers = writesGroups(this.deps) ? this.deps : null;
    for (let start = 0; start < entries.length; ) {
      // Other requests get a turn between items: a store's writes are synchronous (SQLite), so a batch of twenty
      // 290 KB texts held the local server for 1.1-1.4 s at once (an outside probe); now for one item's writes at most.
      if (start > 0) await nextTurn();
      const group =
        writers && inlineTimeLeft(options) > 0 ? textGroupAt(entries, start, (key) => this.inFlight.has(key)) : null;
      if (!writers || !group) {
        const entry = entries[start]!;
        receipts.push('receipt' in entry ? entry.receipt : await this.capture(entry.ref, entry.item, options));
        start += 1;
        continue;
      }
      const outcomes = await this.inGroupFlight(group.ref, group.texts, () =>
        captureTextGroup(writers, group.ref, group.texts),
      );
      // Once the group stored some of its texts, the ones it handed back began with them: the budget does not cut
      // them off (a later item created before an earlier refused). A group that stored nothing changed nothing.
      const handedBack = outcomes.some((outcome) => outcome !== null) ? { ...options, deadline: undefined } : options;
      for (const [k, item] of group.items.entries()) {
        const outcome = outcomes[k];
        receipts.push(outcome ? groupReceipt(outcome) : await this.capture(group.ref, item, handedBack));
      }
      start += group.items.length;
    }
    return receipts;
  }

  /**
   * Holds a group's texts in the single flight while the group runs: a
   * single capture of one of them meanwhile waits for the group to end,
   * then looks again (finding the group's document, or capturing it itself).
   */
  private async inGroupFlight(
    ref: LibraryRef,
    texts: readonly GroupText[],
    run: () => Promise<GroupOutcome[]>,
  ): Promise<GroupOutcome[]> {
    const running = run();
    // A capture waiting on one of these only reads whether the group stored its text (else it captures it itself).
    const storedBy = (k: number) => (outcomes: GroupOutcome[]) => {
      const outcome = outcomes[k];
      return outcome ? groupReceipt(outcome) : HANDED_BACK;
    };
    const flights = new Map<string, Promise<CaptureReceipt>>();
    for (const [k, text] of texts.entries()) {
      const key = flightKey(ref, text.sha256);
      if (!flights.has(key))
        flights.set(
          key,
          running.then(storedBy(k), () => HANDED_BACK),
        );
    }
    for (const [key, flight] of flights) this.inFlight.set(key, flight);
    try {
      return await running;
    } finally {
      for (const [key, flight] of flights) if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    }
  }

  async capture(ref: LibraryRef, item: CaptureItem, options: CaptureOptions = {}): Promise<CaptureReceipt> {
    try {
      if (item.replaceSourceRef && item.sourceRef === undefined) {
        throw new CaptureRejected('invalid_item', 'replace_source_ref: requires source_ref');
      }
      const decoded = decodePayload(item);
      // Too late to store anything safely within the request: say so, and store nothing.
      if (inlineTimeLeft(options) <= 0) return rejectedReceipt('backend_unavailable', OUT_OF_TIME_DETAIL);
      const payload = { ...decoded, sha256: createHash('sha256').update(decoded.bytes).digest('hex') };
      return await this.singleFlight(ref, item, payload, options);
    } catch (error) {
      return receiptForFailure(error);
    }
  }

  /** Runs the capture, or waits for the same payload's run in flight and then looks again (decoded and hashed once). */
  private async singleFlight(
    ref: LibraryRef,
    item: CaptureItem,
    payload: Payload,
    options: CaptureOptions,
  ): Promise<CaptureReceipt> {
    const key = flightKey(ref, payload.sha256);
    const running = this.inFlight.get(key);
    if (running) {
      const first = await running;
      // The first run stored it: this one is a duplicate. If it failed, try again ourselves.
      if (first.ok) return this.singleFlight(ref, item, payload, options);
    }
    const run = this.captureInCurrentGeneration(ref, item, payload, options);
    this.inFlight.set(key, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(key) === run) this.inFlight.delete(key);
    }
  }

  /**
   * When the library is erased while a capture runs (its generation ends
   * between the claim and the last write), what the capture wrote is removed
   * and it starts again in the library's new generation: a capture racing an
   * erasure either finished before it (and was erased) or lands whole after
   * it (docs/api-notes.md, "Erasure").
   */
  private async captureInCurrentGeneration(
    ref: LibraryRef,
    item: CaptureItem,
    payload: Payload,
    options: CaptureOptions,
  ): Promise<CaptureReceipt> {
    try {
      return await inCurrentGeneration(CAPTURE_ATTEMPTS, () => this.captureOnce(ref, item, payload, options));
    } catch (error) {
      if (!(error instanceof LibraryErasedError)) throw error;
      return rejectedReceipt(
        'backend_unavailable',
        'the library was erased again and again while this capture ran; nothing was stored; retry',
      );
    }
  }

  private async captureOnce(
    ref: LibraryRef,
    item: CaptureItem,
    payload: Payload,
    options: CaptureOptions,
  ): Promise<CaptureReceipt> {
    try {
      const existing = await this.deps.documents.findBySha256(ref, payload.sha256);
      // A document that failed to index holds no text: sending it again is a retry, not a duplicate. It is
      // replaced only once the retry is sure to store something: a retry rejected again removes nothing.
      const failed = existing?.status === 'failed' ? existing : null;
      const replaceFailed = async () => {
        if (failed) await removeDocument(this.deps, failed);
      };
      if (existing && !failed) {
        await this.deps.documents.touchLibrary(ref, this.deps.clock.now()); // a capture is activity, even a duplicate
        // Erased between the look and the touch: this capture starts the library afresh.
        if (!(await this.deps.documents.get(ref, existing.id))) throw new LibraryErasedError();
        return await this.deduped(item, existing);
      }
      const slow = !payload.isText && (await this.deps.extractor.isSlowWork(payload.bytes));
      const readNow = !slow || (options.interactive && this.deps.extractInlineWhenIdle && this.deps.queue.isIdle());
      if (!readNow) return await replaceFailed().then(() => this.queueExtraction(ref, item, payload));
      if (payload.isText) {
        await replaceFailed();
        return await this.captureKnownText(ref, item, payload, pushedText(item.text ?? ''), options);
      }
      // A file is read in the request only while the budget lasts, and only by a reader free now; else its bytes are queued, and the receipt says so.
      const read =
        inlineTimeLeft(options) > 0
          ? await withinBudget((signal) => this.readFile(item, payload, signal), options)
          : { done: false as const };
      await replaceFailed();
      if (!read.done) return await this.queueExtraction(ref, item, payload, OUT_OF_TIME_READING);
      if (read.value === DEFERRED) return await this.queueExtraction(ref, item, payload, READERS_BUSY);
      return await this.captureKnownText(ref, item, payload, read.value, options);
    } catch (error) {
      return receiptForFailure(error);
    }
  }

  /** The text of a file read in the request, or DEFERRED when no reader is free for it now. */
  private async readFile(
    item: CaptureItem,
    payload: Payload,
    signal: AbortSignal,
  ): Promise<KnownText | typeof DEFERRED> {
    let extracted: KnownText;
    try {
      extracted = await this.deps.extractor.extract(
        {
          bytes: payload.bytes,
          declaredContentType: item.contentType ?? 'application/octet-stream',
          filename: item.filename ?? '',
        },
        { request: { signal } },
      );
    } catch (error) {
      if (error instanceof ExtractionDeferred) return DEFERRED;
      throw error;
    }
    requireText(extracted.text);
    return extracted;
  }

  /**
   * The text is known: claim, index its words, then embed now (small, single,
   * idle) or queue the embedding. Any failure before the receipt undoes it all.
   */
  private async captureKnownText(
    ref: LibraryRef,
    item: CaptureItem,
    payload: Payload,
    known: KnownText,
    options: CaptureOptions,
  ): Promise<CaptureReceipt> {
    const placement = payload.isText ? undefined : await documentBlobs(this.deps).placement(ref);
    const now = this.deps.clock.now();
    const doc = newDocumentRecord(
      ref,
      item,
      {
        sha256: payload.sha256,
        sizeBytes: payload.bytes.byteLength,
        kind: known.kind,
        contentType: known.contentType,
        text: known.text,
        pageCount: known.pageCount,
        hasBytes: !payload.isText,
      },
      now,
      placement,
    );
    const claim = await claimDocument(this.deps, doc, payload.isText ? null : payload.bytes);
    if (!claim.claimed) return this.deduped(item, claim.existing);
    try {
      const indexed = await indexWords(this.deps, doc, known, now, claim.generation);
      if (!indexed) return acceptedReceipt('created', doc, REMOVED_SINCE_DETAIL);
      const { passages } = indexed;
      const replaced = doc.replacing ? `; ${replacedDetail(indexed.replaced)}` : '';
      const job = {
        tenantId: ref.tenantId,
        endUserId: ref.endUserId,
        documentId: doc.id,
        generation: claim.generation,
      };
      // Inline only when the embedder has nothing else to do: no backlog, and no other capture embedding inline.
      if (
        options.interactive &&
        passages.length <= INLINE_EMBED_PASSAGES &&
        this.inlineEmbeds === 0 &&
        this.deps.queue.isIdle() &&
        inlineTimeLeft(options) > 0
      ) {
        // Counted until the embedding itself ends: one the budget gave up on still holds the embedder.
        this.inlineEmbeds += 1;
        const embedding = this.worker
          .runToCompletion(job, { concurrency: 1, stepPassages: INLINE_EMBED_PASSAGES })
          .finally(() => (this.inlineEmbeds -= 1));
        const run = await withinBudget(() => embedding, options);
        if (run.done && run.value.outcome === 'ready')
          return acceptedReceipt('created', doc, `stored and indexed: findable by words and by meaning${replaced}`);
        // An erasure came first: start again in the library's new generation.
        if (run.done && (await this.deps.documents.libraryGeneration(ref)) !== claim.generation)
          throw new LibraryErasedError();
        // A deletion of this document came first: the receipt stays true (it was stored), and it is gone now.
        if (run.done) return acceptedReceipt('created', doc, REMOVED_SINCE_DETAIL);
        // The budget ran out while embedding: the queue finishes it (the step still running only attaches vectors; it can remove nothing).
        await this.deps.queue.enqueue(job);
        return acceptedReceipt('created', doc, `${OUT_OF_TIME_EMBEDDING}${replaced}`);
      }
      await this.deps.queue.enqueue(job);
      return acceptedReceipt('created', doc, `${QUEUED_TEXT_DETAIL}${replaced}`);
    } catch (error) {
      await removeDocument(this.deps, doc).catch(() => undefined);
      throw error;
    }
  }

  /** The receipt of a duplicate; with `replace_source_ref`, the existing document replaces the older ones with that source_ref. */
  private async deduped(item: CaptureItem, existing: DocumentRecord): Promise<CaptureReceipt> {
    if (!item.replaceSourceRef || item.sourceRef === undefined)
      return acceptedReceipt('deduped', existing, DEDUPED_DETAIL);
    const replaced = await replaceByExisting(this.deps, existing, item.sourceRef, this.deps.clock.now());
    return acceptedReceipt('deduped', existing, `${DEDUPED_DETAIL}; ${replaced}`);
  }

  /** Slow work (OCR, PDF, DOCX, large files): the bytes are stored and claimed now; extraction and indexing are queued. */
  private async queueExtraction(
    ref: LibraryRef,
    item: CaptureItem,
    payload: Payload,
    detail = QUEUED_DETAIL,
  ): Promise<CaptureReceipt> {
    const doc = newDocumentRecord(
      ref,
      item,
      {
        sha256: payload.sha256,
        sizeBytes: payload.bytes.byteLength,
        kind: 'file',
        contentType: item.contentType ?? 'application/octet-stream',
        text: null,
        pageCount: null,
        hasBytes: true,
      },
      this.deps.clock.now(),
      await documentBlobs(this.deps).placement(ref),
    );
    const claim = await claimDocument(this.deps, doc, payload.bytes);
    if (!claim.claimed) return this.deduped(item, claim.existing);
    try {
      await this.deps.queue.enqueue({
        tenantId: ref.tenantId,
        endUserId: ref.endUserId,
        documentId: doc.id,
        generation: claim.generation,
      });
    } catch (error) {
      await removeDocument(this.deps, doc).catch(() => undefined);
      throw error;
    }
    return acceptedReceipt('created', doc, doc.replacing ? `${detail}; ${REPLACES_LATER}` : detail);
  }
}

/** One item of a batch: its library and content, or the receipt its validation already gave it. */
export type BatchEntry = { ref: LibraryRef; item: CaptureItem } | { receipt: CaptureReceipt };

const sameLibrary = (a: LibraryRef, b: LibraryRef) => a.tenantId === b.tenantId && a.endUserId === b.endUserId;

/** A payload's key in the single flight: one run per library and content in this process. */
const flightKey = (ref: LibraryRef, sha256: string) => JSON.stringify([ref.tenantId, ref.endUserId, sha256]);

/**
 * The text pushes from `start` on that can be captured together: short
 * plain texts (no replacement) of the first one's library, whose payloads
 * pass their checks and which no capture in flight holds, at most
 * GROUP_TEXTS; null when fewer than two.
 */
function textGroupAt(
  entries: readonly BatchEntry[],
  start: number,
  inFlight: (key: string) => boolean,
): { ref: LibraryRef; items: CaptureItem[]; texts: GroupText[] } | null {
  const first = entries[start];
  if (!first || 'receipt' in first) return null;
  const items: CaptureItem[] = [];
  const texts: GroupText[] = [];
  for (const entry of entries.slice(start, start + GROUP_TEXTS)) {
    if ('receipt' in entry || !sameLibrary(entry.ref, first.ref)) break;
    const { item } = entry;
    if (item.text === undefined || item.contentBase64 !== undefined || item.replaceSourceRef) break;
    let bytes: Uint8Array;
    try {
      bytes = decodePayload(item).bytes;
    } catch {
      break; // rejected alone, with its own receipt
    }
    if (bytes.byteLength > GROUP_TEXT_BYTES) break;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (inFlight(flightKey(first.ref, sha256))) break;
    items.push(item);
    texts.push({ text: item.text, labels: item, sha256, sizeBytes: bytes.byteLength });
  }
  return texts.length >= 2 ? { ref: first.ref, items, texts } : null;
}

function groupReceipt(outcome: NonNullable<GroupOutcome>): CaptureReceipt {
  if (outcome.status === 'created-then-deleted') return acceptedReceipt('created', outcome.doc, REMOVED_SINCE_DETAIL);
  return acceptedReceipt('created', outcome.doc, QUEUED_TEXT_DETAIL);
}

const DEDUPED_DETAIL = 'the same content is already in this library';
const REMOVED_SINCE_DETAIL = 'stored; removed since by a deletion, or by a newer capture with its source_ref';
/** What a capture waiting on a group's text learns when the group did not store it. */
const HANDED_BACK = rejectedReceipt('backend_unavailable', 'left to its own capture');
const QUEUED_TEXT_DETAIL =
  'stored: findable by words and grep now, by meaning once its passages are embedded (status processing until then)';
const REPLACES_LATER = 'replaces older documents with this source_ref once its text is extracted';
const QUEUED_DETAIL =
  'stored; extraction and indexing continue in the background (document status processing until ready)';
const READERS_BUSY =
  'stored; every file reader was busy, so extraction and indexing continue in the background (document status processing until ready)';
/** A file the extractor could not take in the request: it goes to the queue. */
const DEFERRED = Symbol('deferred');
const OUT_OF_TIME_READING =
  "stored; reading the file did not fit the request's time budget, so extraction and indexing continue in the background (document status processing until ready)";
const OUT_OF_TIME_EMBEDDING =
  "stored: findable by words and grep now; embedding did not fit the request's time budget and continues in the background (status processing until ready)";

/**
 * Checks presence, base64 and sizes; returns the payload bytes that define
 * identity. Exported for `library push --dry-run` (bin/push-preflight.ts),
 * which predicts a capture's rejects with these very checks.
 */
export function decodePayload(item: CaptureItem): { bytes: Uint8Array; isText: boolean } {
  const hasText = item.text !== undefined;
  const hasBytes = item.contentBase64 !== undefined;
  if (hasText && hasBytes)
    throw new CaptureRejected('ambiguous_content', 'send either text or content_base64, not both');
  if (!hasText && !hasBytes) throw new CaptureRejected('missing_content', 'send text or content_base64');
  if (hasText) {
    const bytes = Buffer.from(item.text!, 'utf8');
    if (bytes.byteLength > LIMITS.textBytes)
      throw new CaptureRejected('too_large', `text: at most ${LIMITS.textBytes} bytes of UTF-8`);
    if (!item.text!.trim()) throw new CaptureRejected('empty_content', 'text: empty or only whitespace');
    // A text push is text/plain with no file name (API.md): taken, either would be stored as a file's, or dropped.
    if (item.filename !== undefined)
      throw new CaptureRejected('invalid_item', 'filename: only with content_base64 (a text push has no file name)');
    if (item.contentType !== undefined)
      throw new CaptureRejected(
        'invalid_item',
        'content_type: only with content_base64 (a text push is text/plain; charset=utf-8)',
      );
    return { bytes, isText: true };
  }
  if (item.filename === undefined) throw new CaptureRejected('invalid_item', 'filename: required with content_base64');
  if (item.contentType === undefined)
    throw new CaptureRejected('invalid_item', 'content_type: required with content_base64');
  const encoded = item.contentBase64!;
  if (!isBase64(encoded)) throw new CaptureRejected('invalid_base64', 'content_base64: not valid base64');
  // Refuse before decoding: the decoded size follows from the encoded length.
  if (decodedLength(encoded) > LIMITS.fileBytes) {
    throw new CaptureRejected('too_large', `content_base64: decoded size over ${LIMITS.fileBytes} bytes (4 MiB)`);
  }
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.byteLength === 0) throw new CaptureRejected('empty_content', 'content_base64: the file is empty');
  return { bytes, isText: false };
}

function receiptForFailure(error: unknown): CaptureReceipt {
  if (error instanceof CaptureRejected) return rejectedReceipt(error.rejectCode, error.detail);
  if (error instanceof CallerBucketUnavailableError) return rejectedReceipt('backend_unavailable', error.message);
  if (error instanceof BackendUnavailableError) {
    return rejectedReceipt(
      'backend_unavailable',
      'a storage or model backend is unavailable; nothing was stored; retry',
    );
  }
  throw error;
}
