import { documentBlobs } from './bucket/document-blobs.js';
import { indexWords, recordIndexedText, requireText } from './document-indexing.js';
import { BackendUnavailableError, CaptureRejected, LibraryErasedError } from './errors.js';
import type { DocumentRecord, LibraryRef, Passage } from './model.js';
import type {
  BlobStore,
  CallerBuckets,
  Clock,
  DocumentStore,
  Embedder,
  IngestJob,
  SearchIndex,
  TextExtractor,
} from './ports.js';
import { removeDocument } from './removal.js';
import { resumeReplacement } from './replacement.js';
import type { PipelineSpend } from './usage.js';

/** What the worker needs: the capture ports, without the queue (finishing a job enqueues nothing). */
export interface IngestWorkerDeps {
  documents: DocumentStore;
  blobs: BlobStore;
  buckets?: CallerBuckets;
  index: SearchIndex;
  embedder: Embedder;
  extractor: TextExtractor;
  clock: Clock;
  spend: PipelineSpend;
}

/** Passages embedded per step: small, so a step is short and one big document never holds the embedder for long. */
export const EMBED_STEP_PASSAGES = 8;

export type StepResult =
  /** The document is gone or no longer processing (a repeated job, an erasure): drop the job. */
  | { outcome: 'skipped' }
  /** Extraction put the text in the index; its passages wait for vectors. */
  | { outcome: 'extracted'; passages: number }
  /** Every passage has its vector: the document is ready. */
  | { outcome: 'ready' }
  /** The file cannot be read: the document ended failed. */
  | { outcome: 'failed'; reason: string };

const refOf = (of: IngestJob | DocumentRecord): LibraryRef => ({ tenantId: of.tenantId, endUserId: of.endUserId });

/**
 * The ingestion worker's use case, the same on both stacks: a queued
 * document is extracted (when its text is not known yet), then its passages
 * are embedded a step at a time until it is ready. Each step is durable on
 * its own, so a crash or a retried job resumes where it stopped and never
 * embeds a passage twice. The local drain (wiring/local/ingest-drain.ts) schedules
 * steps fairly across libraries; the AWS worker (workers/aws-ingest) runs a
 * job to completion with bounded concurrency.
 */
/** Where a job's search for passages without vectors starts (IngestWorker.pending): 0 at first. */
export interface PendingFloor {
  ordinal: number;
}

export class IngestWorker {
  constructor(private readonly deps: IngestWorkerDeps) {}

  /** The next step a job needs: extract, embed, or nothing (skipped). */
  async next(job: IngestJob): Promise<{ stage: 'extract' | 'embed'; doc: DocumentRecord } | null> {
    const doc = await this.deps.documents.get(refOf(job), job.documentId);
    if (doc?.status !== 'processing') return null;
    // A replacement whose text is indexed but whose switch was cut off (the process stopped): finish it.
    if (doc.replacing && doc.passageCount !== null) {
      await resumeReplacement(this.deps, doc);
      doc.replacing = false;
    }
    return { stage: doc.passageCount === null ? 'extract' : 'embed', doc };
  }

  /**
   * Reads the stored bytes and puts the text in the index (findable by words
   * from now on). A file that cannot be read ends the document `failed`; a
   * backend failure is thrown for the caller to retry.
   */
  async extract(doc: DocumentRecord): Promise<StepResult> {
    const { extractor, documents } = this.deps;
    const ref = refOf(doc);
    // The generation first, then the document: a document still there after
    // the read belongs to that generation, and the index write is conditioned on it.
    const generation = await documents.libraryGeneration(ref);
    if (!generation || !(await documents.get(ref, doc.id))) return { outcome: 'skipped' };
    try {
      const bytes = doc.blobKey ? await documentBlobs(this.deps).get(doc) : null;
      if (!bytes) throw new CaptureRejected('extraction_failed', 'the stored file is missing');
      const extracted = await extractor.extract({
        bytes,
        declaredContentType: doc.contentType,
        filename: doc.filename ?? '',
      });
      requireText(extracted.text);
      const indexed = await indexWords(this.deps, doc, extracted, this.deps.clock.now(), generation);
      if (!indexed) return { outcome: 'skipped' }; // deleted meanwhile
      return { outcome: 'extracted', passages: indexed.passages.length };
    } catch (error) {
      if (error instanceof LibraryErasedError) return { outcome: 'skipped' }; // erased meanwhile: nothing of it stays
      if (!(error instanceof CaptureRejected)) throw error;
      return this.fail(doc, `${error.rejectCode}: ${error.detail}`);
    }
  }

  /**
   * Up to `limit` passages still without vectors, lowest first, leaving out
   * those being embedded (`skip`). With `floor` (a job's own, kept across its
   * steps) the search starts where the last one found its first passage:
   * below it every passage has its vector or was in `skip` then (and one
   * given back unembedded is above the floor, found again). From the first
   * passage each time, a document of 5,000 passages was read 156 times over
   * as it was embedded: 2.6 s of the server's main thread.
   */
  async pending(
    doc: DocumentRecord,
    limit: number,
    skip?: ReadonlySet<number>,
    floor?: PendingFloor,
  ): Promise<Passage[]> {
    const from = floor?.ordinal;
    // Read before the search: a step that fails meanwhile gives its passages back unembedded, and they were skipped.
    const lowestSkipped = Math.min(...(skip ?? []));
    const passages = await this.deps.index.passagesWithoutVectors(refOf(doc), doc.id, { limit, skip, from });
    if (floor) {
      const lowest = Math.min(passages[0]?.ordinal ?? Number.POSITIVE_INFINITY, lowestSkipped);
      if (Number.isFinite(lowest)) floor.ordinal = lowest;
    }
    return passages;
  }

  /**
   * Embeds these passages and attaches their vectors (findable by meaning
   * from now on), then records the progress and charges the tokens. Returns
   * false when the document is gone (an erasure came first: nothing is
   * written). Throws BackendUnavailableError when the embedder fails.
   */
  async embedPassages(doc: DocumentRecord, passages: readonly Passage[]): Promise<boolean> {
    const { index, embedder, documents, spend, clock } = this.deps;
    const ref = refOf(doc);
    const { vectors, tokens } = await embedder.embed(
      passages.map((p) => p.text),
      'passage',
    );
    const attached = await index.attachPassageVectors(
      ref,
      doc.id,
      passages.map((p, i) => ({ ordinal: p.ordinal, vector: vectors[i]! })),
    );
    if (!attached) return false;
    await documents.recordEmbedded(ref, doc.id, passages.length);
    await spend.recordEmbedding({ tenantId: ref.tenantId, at: clock.now(), tokens });
    return true;
  }

  /** Marks the document ready when every passage has its vector; true when it did. */
  async settleIfComplete(doc: DocumentRecord): Promise<boolean> {
    if ((await this.pending(doc, 1)).length) return false;
    await this.deps.documents.settle(refOf(doc), doc.id, { status: 'ready' });
    return true;
  }

  /**
   * Runs a job to its end within one call: extraction if needed, then every
   * passage, `concurrency` steps at a time (each reserves its passages
   * first, so no two embed the same one). For work small enough to finish
   * in a request, and for the AWS worker. Backend failures are thrown (the
   * caller retries the job; the finished steps stay done).
   */
  async runToCompletion(job: IngestJob, options: { concurrency: number; stepPassages?: number }): Promise<StepResult> {
    let next = await this.next(job);
    if (next?.stage === 'extract') {
      const extracted = await this.extract(next.doc);
      if (extracted.outcome === 'failed') return extracted;
      next = await this.next(job);
    }
    if (!next) return { outcome: 'skipped' };
    const doc = next.doc;
    const limit = options.stepPassages ?? EMBED_STEP_PASSAGES;
    const inFlight = new Set<number>();
    const floor: PendingFloor = { ordinal: 0 };
    let gone = false;
    // Lanes choose their passages one at a time (the choice is async), so none is chosen twice.
    let choosing: Promise<unknown> = Promise.resolve();
    const choose = () => {
      const chosen = choosing
        .then(() => this.pending(doc, limit, inFlight, floor))
        .then((passages) => {
          for (const p of passages) inFlight.add(p.ordinal);
          return passages;
        });
      choosing = chosen.catch(() => undefined);
      return chosen;
    };
    let failed = false;
    const lane = async () => {
      while (!gone && !failed) {
        const passages = await choose();
        if (!passages.length) return;
        try {
          if (!(await this.embedPassages(doc, passages))) gone = true;
        } catch (error) {
          failed = true; // the other lanes stop after their step: a retry must not overlap them
          throw error;
        } finally {
          for (const p of passages) inFlight.delete(p.ordinal);
        }
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, options.concurrency) }, lane));
    const failure = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    if (failure) throw failure.reason;
    if (gone) return { outcome: 'skipped' };
    return (await this.settleIfComplete(doc)) ? { outcome: 'ready' } : { outcome: 'skipped' };
  }

  /** Ends a document `failed` with its reason; its index entries go (its record and bytes stay, so the reason can be read). */
  async fail(doc: DocumentRecord, reason: string): Promise<StepResult> {
    const ref = refOf(doc);
    await this.deps.index.remove(ref, doc.id);
    await this.deps.documents.settle(ref, doc.id, { status: 'failed', reason });
    return { outcome: 'failed', reason };
  }

  /**
   * The reason a document fails with when its backend never recovered, the
   * same on both stacks; the local drain knows the passage and the attempts.
   */
  static gaveUp(error: unknown, where: { passage?: number; attempts?: number } = {}): string {
    const detail = error instanceof BackendUnavailableError ? error.message : 'an internal error';
    const at = where.passage === undefined ? '' : ` at passage ${where.passage}`;
    const after = where.attempts === undefined ? 'repeated failures' : `${where.attempts} attempts`;
    return `backend_unavailable: indexing gave up${at} after ${after} (${detail})`;
  }

  /** Removes a document that never became durable (its capture was cut off before its receipt). */
  async rollBack(doc: DocumentRecord): Promise<void> {
    await removeDocument(this.deps, doc);
  }

  /**
   * A document found `processing` with no job after a start: its capture
   * was cut off before it queued the document (and before its receipt).
   * When its text is not in the index, nothing of it was ever findable: it
   * is rolled back, as is a document whose record never learned its indexed
   * text. Two stay, their job queued again (to return; it embeds the
   * passages and finishes a replacement: next): a replacement whose index
   * write took the older versions out of the index (rolling it back would
   * leave its source_ref with no findable version, the older records listed
   * and found by nothing; its record learns what the index holds), and a
   * document whose every write was done, a replacement's record switch
   * included, only its queueing cut off. Null: rolled back.
   */
  async recoverCutOff(doc: DocumentRecord): Promise<IngestJob | null> {
    const ref = refOf(doc);
    const generation = await this.deps.documents.libraryGeneration(ref);
    const text = generation ? await this.deps.index.documentText(ref, doc.id, generation) : null;
    if (text === null || !(doc.replacing || doc.passageCount !== null)) {
      await this.rollBack(doc);
      return null;
    }
    if (doc.passageCount === null) await recordIndexedText(this.deps, doc, text);
    return { tenantId: doc.tenantId, endUserId: doc.endUserId, documentId: doc.id, generation: generation! };
  }
}
