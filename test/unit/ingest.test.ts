import { describe, expect, it } from 'vitest';
import { BackendUnavailableError, CaptureRejected } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import type { Embedder, TextExtractor } from '../../lambdas/core/ports.js';
import { coreHarness, utf8Extractor } from '../support/core-harness.js';
import { turnsDuring } from '../support/event-loop-turns.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import type { InMemoryBlobStore, InMemoryDocumentStore } from '../support/in-memory-ports.js';

const alice: LibraryRef = { tenantId: 'ten_a', endUserId: 'alice' };
const bob: LibraryRef = { tenantId: 'ten_b', endUserId: null };
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A note of `n` passages (each line is one paragraph of ~400 characters), each passage holding `marker-i`. */
const longNote = (marker: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${marker}-${i} ${'lorem ipsum dolor sit amet '.repeat(14)}\n`).join('\n');

/** An embedder that records which texts it was given, in order, and can be told to fail on some. */
class RecordingEmbedder implements Embedder {
  readonly name = 'hashing-test-embedder';
  readonly dimensions = 64;
  readonly calls: string[][] = [];
  failWhen: (text: string) => boolean = () => false;
  private readonly inner = new HashingEmbedder();
  async embed(texts: readonly string[], purpose: 'query' | 'passage') {
    if (purpose === 'passage') this.calls.push([...texts]);
    if (texts.some((t) => this.failWhen(t))) throw new BackendUnavailableError('embedding failed for this batch');
    return this.inner.embed(texts);
  }
}

describe('the ingestion pipeline (capture, queue, drain, worker)', () => {
  it('takes a document from processing to ready: findable by words at once, by meaning once embedded', async () => {
    const { services, ports, drain } = coreHarness();
    const receipt = await services.capture.capture(alice, { text: longNote('harbour', 20) });
    expect(receipt.status).toBe('created');
    const queued = await services.documents.get(alice, receipt.id!);
    expect(queued).toMatchObject({
      status: 'processing',
      findable_by_words: true,
      findable_by_meaning: false,
      passages: 20,
      failure_reason: null,
    });
    expect((await ports.index.keywordSearch(alice, { text: 'harbour-7', limit: 3 }))[0]?.itemId).toBe(receipt.id);
    await drain.whenIdle();
    const ready = await services.documents.get(alice, receipt.id!);
    expect(ready).toMatchObject({ status: 'ready', findable_by_meaning: true, passages: 20, passages_embedded: 20 });
    const {
      vectors: [vector],
    } = await ports.embedder.embed([`harbour-13 ${'lorem ipsum dolor sit amet '.repeat(14)}`], 'query');
    const hits = await ports.index.vectorSearch(alice, { vector: vector!, limit: 20 });
    expect(new Set(hits.map((h) => h.passage.ordinal)).size).toBe(20);
  });

  it('finishes a small single capture in its request when idle, and queues it when the drain is busy', async () => {
    const { services, drain } = coreHarness();
    const idle = await services.capture.capture(alice, { text: 'a small note about tea' }, { interactive: true });
    expect((await services.documents.get(alice, idle.id!)).status).toBe('ready');
    await services.capture.capture(alice, { text: longNote('busy', 40) });
    const busy = await services.capture.capture(
      alice,
      { text: 'another small note about coffee' },
      { interactive: true },
    );
    expect((await services.documents.get(alice, busy.id!)).status).toBe('processing');
    await drain.whenIdle();
    expect((await services.documents.get(alice, busy.id!)).status).toBe('ready');
  });

  it('never embeds more than a step of passages at once, and embeds every passage exactly once', async () => {
    const embedder = new RecordingEmbedder();
    const { services, drain } = coreHarness({ embedder });
    await services.capture.capture(alice, { text: longNote('once', 50) });
    await drain.whenIdle();
    expect(Math.max(...embedder.calls.map((c) => c.length))).toBeLessThanOrEqual(8);
    const embedded = embedder.calls.flat().map((t) => t.split(' ')[0]);
    expect(embedded.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `once-${i}`).sort());
  });

  it('serves tenants in turn: a big upload does not hold back another tenant', async () => {
    const embedder = new RecordingEmbedder();
    const { services, drain } = coreHarness({ embedder }, { lanes: 1 });
    await services.capture.capture(alice, { text: longNote('big', 80) });
    const aliceStepsBefore = embedder.calls.length;
    await services.capture.capture(bob, { text: longNote('small', 3) });
    await drain.whenIdle();
    const order = embedder.calls.map((c) => (c[0]!.startsWith('small') ? 'bob' : 'alice'));
    // Bob's one step comes right after the step running when he arrived, not after alice's ten.
    expect(aliceStepsBefore).toBeLessThan(9);
    expect(order.indexOf('bob')).toBeLessThanOrEqual(aliceStepsBefore + 1);
    expect(order.filter((o) => o === 'alice')).toHaveLength(10);
  });

  it('splits a batch that keeps failing, so the one bad passage fails its document alone', async () => {
    const embedder = new RecordingEmbedder();
    embedder.failWhen = (text) => text.startsWith('poison-5 ');
    const { services, drain } = coreHarness({ embedder });
    const bad = await services.capture.capture(alice, { text: longNote('poison', 12) });
    const good = await services.capture.capture(alice, { text: longNote('healthy', 12) });
    await drain.whenIdle();
    const failed = await services.documents.get(alice, bad.id!);
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toMatch(/^backend_unavailable: indexing gave up at passage 5 /);
    expect((await services.documents.get(alice, good.id!)).status).toBe('ready');
    // Isolation ran: the bad passage was tried on its own.
    expect(embedder.calls.some((c) => c.length === 1 && c[0]!.startsWith('poison-5 '))).toBe(true);
  });

  it('retries a failing embedder and finishes once it recovers', async () => {
    const embedder = new RecordingEmbedder();
    let failures = 3;
    embedder.failWhen = () => failures-- > 0;
    const { services, drain } = coreHarness(
      { embedder },
      { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 6 } },
    );
    const receipt = await services.capture.capture(alice, { text: longNote('flaky', 4) });
    await drain.whenIdle();
    expect((await services.documents.get(alice, receipt.id!)).status).toBe('ready');
  });

  it('queues slow files: extraction in the background, a file that cannot be read ends failed with its reason and keeps no index entry', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const extractor: TextExtractor = {
      ...utf8Extractor,
      async extract(input) {
        await gate;
        if (Buffer.from(input.bytes).toString('utf8').includes('CORRUPT'))
          throw new CaptureRejected('extraction_failed', 'the file could not be read as its type');
        return utf8Extractor.extract(input);
      },
    };
    const { services, drain, ports } = coreHarness({ extractor });
    const slow = await services.capture.capture(alice, {
      contentBase64: b64('%SLOW scanned minutes of the meeting'),
      filename: 'm.pdf',
      contentType: 'application/pdf',
    });
    const corrupt = await services.capture.capture(alice, {
      contentBase64: b64('%SLOW CORRUPT'),
      filename: 'c.pdf',
      contentType: 'application/pdf',
    });
    expect(await services.documents.get(alice, slow.id!)).toMatchObject({
      status: 'processing',
      findable_by_words: false,
      passages: null,
    });
    open();
    await drain.whenIdle();
    expect(await services.documents.get(alice, slow.id!)).toMatchObject({
      status: 'ready',
      line_count: 1,
      findable_by_words: true,
    });
    expect(await services.documents.get(alice, corrupt.id!)).toMatchObject({
      status: 'failed',
      failure_reason: 'extraction_failed: the file could not be read as its type',
      findable_by_words: false,
    });
    expect((await ports.index.keywordSearch(alice, { text: 'meeting', limit: 5 })).map((h) => h.itemId)).toEqual([
      slow.id,
    ]);
    // The failed file can be sent again: a retry, not a duplicate.
    const corruptFile = { contentBase64: b64('%SLOW CORRUPT'), filename: 'c.pdf', contentType: 'application/pdf' };
    const retry = await services.capture.capture(alice, corruptFile);
    expect(retry.status).toBe('created');
    await drain.whenIdle();
    expect((await services.documents.get(alice, retry.id!)).status).toBe('failed');
    // Sent again while the queue is idle, it is read in the request and rejected: a rejected capture removes
    // nothing, so the failed document and its reason stay (it was removed before the read).
    const rejected = await services.capture.capture(alice, corruptFile, { interactive: true });
    expect(rejected).toMatchObject({ ok: false, status: 'rejected', reject_code: 'extraction_failed', id: null });
    expect(await services.documents.get(alice, retry.id!)).toMatchObject({
      status: 'failed',
      failure_reason: 'extraction_failed: the file could not be read as its type',
    });
  });

  it('reads a queued file once, whatever the lanes: one file alone in the queue is not taken by several lanes at once', async () => {
    // npm start runs 2 lanes per passage worker (4 on two cores); each lane that took the one job began its
    // extraction, and the third found the file "cut off" twice and failed it.
    let reads = 0;
    const extractor: TextExtractor = {
      ...utf8Extractor,
      async extract(input) {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return utf8Extractor.extract(input);
      },
    };
    const { services, drain } = coreHarness({ extractor }, { lanes: 4 });
    const file = await services.capture.capture(alice, {
      contentBase64: b64('%SLOW the minutes of the lanes meeting'),
      filename: 'lanes.pdf',
      contentType: 'application/pdf',
    });
    await drain.whenIdle();
    expect(await services.documents.get(alice, file.id!)).toMatchObject({ status: 'ready', failure_reason: null });
    expect(reads).toBe(1);
  });

  it('embeds a long document on several lanes at once, each passage once', async () => {
    const embedder = new RecordingEmbedder();
    const { services, drain } = coreHarness({ embedder }, { lanes: 4 });
    await services.capture.capture(alice, { text: longNote('lanes', 40) });
    await drain.whenIdle();
    const embedded = embedder.calls.flat().map((t) => t.split(' ')[0]);
    expect(embedded.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `lanes-${i}`).sort());
  });

  it("searches a document's passages without vectors from where the last search found its first, not from the top each time", async () => {
    const { services, drain, ports } = coreHarness({}, { lanes: 1 });
    const froms: number[] = [];
    const search = ports.index.passagesWithoutVectors.bind(ports.index);
    ports.index.passagesWithoutVectors = (ref, itemId, options) => {
      froms.push(options.from ?? 0);
      return search(ref, itemId, options);
    };
    const receipt = await services.capture.capture(alice, { text: longNote('floor', 200) });
    await drain.whenIdle();
    expect(await services.documents.get(alice, receipt.id!)).toMatchObject({ status: 'ready' });
    // The job's steps start ever further down (a last check from the top says the document is complete).
    const steps = froms.filter((from, i) => i === 0 || from > 0 || froms[i - 1] === 0);
    expect(Math.max(...froms)).toBeGreaterThanOrEqual(150);
    expect(steps.slice(1).every((from, i) => from >= steps[i]!)).toBe(true);
    expect(froms.filter((from) => from === 0).length).toBeLessThanOrEqual(3);
  });

  it("gives other work a turn between a batch's items: a batch of large texts never holds the thread for all of them at once", async () => {
    const { services } = coreHarness();
    const items = Array.from({ length: 6 }, (_, i) => ({ ref: alice, item: { text: longNote(`turn${i}`, 40) } }));
    const { result: receipts, turns } = await turnsDuring(() => services.capture.captureBatch(items));
    expect(receipts.map((r) => r.status)).toEqual(Array(6).fill('created'));
    // At least one turn of the event loop between each two items.
    expect(turns).toBeGreaterThanOrEqual(5);
  });

  it('keeps the floor at or below passages a failing step gives back while the search runs, so none is passed over', async () => {
    const { services, drain, ports } = coreHarness({}, { lanes: 1 });
    drain.stop();
    const receipt = await services.capture.capture(alice, { text: longNote('given-back', 60) });
    const doc = (await ports.documents.get(alice, receipt.id!))!;
    const skip = new Set([0, 1, 2]);
    const search = ports.index.passagesWithoutVectors.bind(ports.index);
    ports.index.passagesWithoutVectors = async (ref, itemId, options) => {
      const found = await search(ref, itemId, options);
      skip.clear(); // the step embedding 0-2 failed meanwhile: they are given back unembedded
      return found;
    };
    const floor = { ordinal: 0 };
    const passages = await services.worker.pending(doc, 10, skip, floor);
    expect(passages[0]!.ordinal).toBe(3);
    expect(floor.ordinal).toBe(0);
  });

  it('leaves nothing behind when the queue cannot take the job (backend_unavailable, retryable)', async () => {
    const base = coreHarness();
    const queue = Object.assign(Object.create(base.queue), {
      enqueue: async () => {
        throw new BackendUnavailableError('queue down');
      },
    });
    const { services, ports } = coreHarness({ queue });
    const receipt = await services.capture.capture(alice, {
      contentBase64: b64('%SLOW a queued file'),
      filename: 'q.pdf',
      contentType: 'application/pdf',
    });
    expect(receipt).toMatchObject({ status: 'rejected', reject_code: 'backend_unavailable', retryable: true });
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
    expect((ports.blobs as InMemoryBlobStore).blobs.size).toBe(0);
  });

  it('drops the job of a document erased while it waits, and writes no vectors for it', async () => {
    const embedder = new RecordingEmbedder();
    const { services, drain, ports, queue } = coreHarness({ embedder }, { lanes: 1 });
    const doc = await services.capture.capture(alice, { text: longNote('erased', 30) });
    await services.endUsers.erase('ten_a', 'alice');
    await drain.whenIdle();
    expect(queue.all()).toEqual([]);
    expect(await ports.index.keywordSearch(alice, { text: 'erased', limit: 5 })).toEqual([]);
    expect(await ports.documents.get(alice, doc.id!)).toBeNull();
  });
});
