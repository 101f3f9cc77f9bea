import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { BUDGET_RESERVE_MS } from '../../lambdas/core/capture.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { GATEWAY_TIMEOUT_MS, RESPONSE_MARGIN_MS, requestDeadline } from '../../lambdas/http/endpoint.js';
import { coreHarness, utf8Extractor } from '../support/core-harness.js';
import { Gate, gatedEmbedder, gatedExtractor } from '../support/gated.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import type { InMemoryBlobStore, InMemoryDocumentStore } from '../support/in-memory-ports.js';

const shared: LibraryRef = { tenantId: 'ten_budget', endUserId: null };
/** A deadline leaving `ms` of inline work after the reserve. */
const inlineBudget = (ms: number) => Date.now() + BUDGET_RESERVE_MS + ms;
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Everything the harness holds for the library: documents, blobs, and index hits for a word. */
async function residue(h: ReturnType<typeof coreHarness>, word: string) {
  return {
    documents: [...(h.ports.documents as unknown as InMemoryDocumentStore).docs.values()].filter(
      (d) => d.tenantId === shared.tenantId,
    ).length,
    blobs: (h.ports.blobs as InMemoryBlobStore).blobs.size,
    hits: (await h.ports.index.keywordSearch(shared, { text: word, limit: 5 })).length,
  };
}

describe('the request budget (CaptureOptions.deadline)', () => {
  it('an embedding that outlives the budget: the receipt says created and processing at once, and the document becomes ready', async () => {
    const gate = new Gate();
    const h = coreHarness({ embedder: gatedEmbedder(new HashingEmbedder(), gate) });
    const started = Date.now();
    const receipt = await h.services.capture.capture(
      shared,
      { text: 'the budget ran out while embedding zebra' },
      { interactive: true, deadline: inlineBudget(300) },
    );
    const elapsed = Date.now() - started;
    expect(receipt).toMatchObject({ ok: true, status: 'created', dedup: false });
    expect(receipt.detail).toMatch(/time budget/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
    expect(gate.held).toBe(1); // the inline step is still hanging
    // What the receipt says is what is stored: the document exists, findable by words, processing.
    const doc = await h.services.documents.get(shared, receipt.id!);
    expect(doc).toMatchObject({ status: 'processing', findable_by_words: true });
    // The queue finishes it while the inline step still hangs.
    await h.drain.whenIdle();
    expect(await h.services.documents.get(shared, receipt.id!)).toMatchObject({
      status: 'ready',
      findable_by_meaning: true,
    });
    // The abandoned step finishing late changes nothing.
    gate.open();
    await sleep(50);
    expect(gate.finishedLate).toBe(1);
    const after = await h.services.documents.get(shared, receipt.id!);
    expect(after).toMatchObject({ status: 'ready', findable_by_meaning: true });
    expect(after.passages_embedded).toBe(after.passages);
    expect(await residue(h, 'zebra')).toEqual({ documents: 1, blobs: 0, hits: 1 });
  });

  it('a slow file read in the request that outlives the budget is queued: created, processing, then ready', async () => {
    const gate = new Gate();
    const h = coreHarness({ extractor: gatedExtractor(utf8Extractor, gate) });
    const item = {
      contentBase64: b64('%SLOW scanned page about a giraffe'),
      filename: 'scan.txt',
      contentType: 'text/plain',
    };
    const receipt = await h.services.capture.capture(shared, item, { interactive: true, deadline: inlineBudget(300) });
    expect(receipt).toMatchObject({ ok: true, status: 'created' });
    expect(receipt.detail).toMatch(/time budget/);
    expect(gate.held).toBe(1);
    expect(await h.services.documents.get(shared, receipt.id!)).toMatchObject({ status: 'processing' });
    await h.drain.whenIdle();
    expect(await h.services.documents.get(shared, receipt.id!)).toMatchObject({
      status: 'ready',
      findable_by_words: true,
      findable_by_meaning: true,
    });
    gate.open();
    await sleep(50);
    expect(gate.finishedLate).toBe(1);
    expect(await residue(h, 'giraffe')).toEqual({ documents: 1, blobs: 1, hits: 1 });
    // Sending it again is a duplicate of what the receipt promised.
    expect((await h.services.capture.capture(shared, item, { interactive: true })).status).toBe('deduped');
  });

  it('within the budget nothing changes: a small single capture is ready when it answers', async () => {
    const h = coreHarness();
    const receipt = await h.services.capture.capture(
      shared,
      { text: 'plenty of time' },
      { interactive: true, deadline: inlineBudget(20_000) },
    );
    expect(receipt.detail).toBe('stored and indexed: findable by words and by meaning');
    expect((await h.services.documents.get(shared, receipt.id!)).status).toBe('ready');
  });

  it('a capture that starts with less than the reserve left is not attempted: backend_unavailable, nothing stored, ever', async () => {
    const h = coreHarness();
    for (const item of [
      { text: 'too late okapi' },
      { contentBase64: b64('too late okapi file'), filename: 'a.txt', contentType: 'text/plain' },
    ]) {
      const receipt = await h.services.capture.capture(shared, item, {
        interactive: true,
        deadline: Date.now() + BUDGET_RESERVE_MS - 1,
      });
      expect(receipt).toMatchObject({
        ok: false,
        status: 'rejected',
        reject_code: 'backend_unavailable',
        retryable: true,
        id: null,
      });
      expect(receipt.detail).toMatch(/time budget ran out.*nothing was stored/);
    }
    await h.drain.whenIdle();
    await sleep(100);
    expect(await residue(h, 'okapi')).toEqual({ documents: 0, blobs: 0, hits: 0 });
    // Sent again with time to spare, it is created (not deduped: nothing was kept).
    expect((await h.services.capture.capture(shared, { text: 'too late okapi' }, { interactive: true })).status).toBe(
      'created',
    );
  });

  it('the budget runs out and the queue refuses the job: backend_unavailable, and nothing is left even after the hung step ends', async () => {
    const gate = new Gate();
    const failingQueue = {
      enqueue: async () => {
        throw new BackendUnavailableError('queue down');
      },
      isIdle: () => true,
    };
    const h = coreHarness({ embedder: gatedEmbedder(new HashingEmbedder(), gate), queue: failingQueue });
    const item = {
      contentBase64: b64('a lemur in a small text file'),
      filename: 'lemur.txt',
      contentType: 'text/plain',
    };
    const receipt = await h.services.capture.capture(shared, item, { interactive: true, deadline: inlineBudget(200) });
    expect(receipt).toMatchObject({ ok: false, reject_code: 'backend_unavailable', retryable: true, id: null });
    expect(await residue(h, 'lemur')).toEqual({ documents: 0, blobs: 0, hits: 0 });
    // The hung inline step ends after the answer: it must not bring anything back.
    gate.open();
    await sleep(100);
    expect(gate.finishedLate).toBe(1);
    await h.drain.whenIdle();
    expect(await residue(h, 'lemur')).toEqual({ documents: 0, blobs: 0, hits: 0 });
  });
});

describe('requestDeadline', () => {
  const event = (requestTimeEpoch?: number) =>
    ({ requestContext: { requestTimeEpoch } }) as unknown as APIGatewayProxyEvent;

  it('is the function’s remaining time less the response margin', () => {
    expect(requestDeadline(event(), { getRemainingTimeInMillis: () => 10_000 }, 1_000_000)).toBe(
      1_000_000 + 10_000 - RESPONSE_MARGIN_MS,
    );
  });

  it('is never later than the gateway’s 29 s from when it received the request (a cold start counts)', () => {
    const now = 1_000_000;
    const received = now - 8_000; // 8 s of initialisation before the handler ran
    expect(requestDeadline(event(received), { getRemainingTimeInMillis: () => 29_000 }, now)).toBe(
      received + GATEWAY_TIMEOUT_MS - RESPONSE_MARGIN_MS,
    );
  });

  it('without a context, is 29 s from now', () => {
    expect(requestDeadline(event(), undefined, 5_000)).toBe(5_000 + GATEWAY_TIMEOUT_MS - RESPONSE_MARGIN_MS);
  });
});
