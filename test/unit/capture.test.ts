import { describe, expect, it } from 'vitest';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { coreHarness } from '../support/core-harness.js';
import { type InMemoryBlobStore, type InMemoryDocumentStore, withFault } from '../support/in-memory-ports.js';

const shared: LibraryRef = { tenantId: 'ten_a', endUserId: null };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('CaptureService', () => {
  it('creates a document, then dedups the same payload with the same id and the stored source_ref', async () => {
    const { services } = coreHarness();
    const first = await services.capture.capture(shared, { text: 'Hello world\nsecond line', sourceRef: 'first-ref' });
    expect(first).toMatchObject({
      ok: true,
      status: 'created',
      dedup: false,
      reject_code: null,
      retryable: null,
      source_ref: 'first-ref',
    });
    expect(first.id).toMatch(/^file_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(first.file_id).toBe(first.id);
    const again = await services.capture.capture(shared, {
      text: 'Hello world\nsecond line',
      title: 'other',
      sourceRef: 'other-ref',
    });
    expect(again).toMatchObject({ ok: true, status: 'deduped', dedup: true, id: first.id, source_ref: 'first-ref' });
  });

  it('treats the same payload in another library as a new document', async () => {
    const { services } = coreHarness();
    const a = await services.capture.capture(shared, { text: 'same' });
    const b = await services.capture.capture({ tenantId: 'ten_a', endUserId: 'u1' }, { text: 'same' });
    const c = await services.capture.capture({ tenantId: 'ten_b', endUserId: null }, { text: 'same' });
    expect([a.status, b.status, c.status]).toEqual(['created', 'created', 'created']);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
  });

  it('gives exactly one created among 25 concurrent identical captures, all with one id', async () => {
    const { services, ports } = coreHarness();
    const receipts = await Promise.all(
      Array.from({ length: 25 }, () => services.capture.capture(shared, { text: 'concurrent payload' })),
    );
    expect(receipts.filter((r) => r.status === 'created')).toHaveLength(1);
    expect(receipts.filter((r) => r.status === 'deduped')).toHaveLength(24);
    expect(new Set(receipts.map((r) => r.id)).size).toBe(1);
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(1);
  });

  it('dedups a bytes push by the decoded bytes and stores the bytes once', async () => {
    const { services, ports } = coreHarness();
    const item = { contentBase64: b64('a,b\n1,2'), filename: 'x.csv', contentType: 'text/csv' };
    const first = await services.capture.capture(shared, item);
    const second = await services.capture.capture(shared, { ...item, filename: 'renamed.csv' });
    expect([first.status, second.status]).toEqual(['created', 'deduped']);
    expect((ports.blobs as InMemoryBlobStore).blobs.size).toBe(1);
    expect((await services.documents.get(shared, first.id!)).title).toBe('x.csv');
  });

  const file = { filename: 'a.txt', contentType: 'text/plain' };
  it.each([
    ['nothing', {}, 'missing_content'],
    ['text and bytes', { text: 'a', contentBase64: b64('a'), ...file }, 'ambiguous_content'],
    ['bytes without filename', { contentBase64: b64('abc'), contentType: 'text/plain' }, 'invalid_item'],
    ['bytes without content_type', { contentBase64: b64('abc'), filename: 'a.txt' }, 'invalid_item'],
    ['bad base64', { contentBase64: 'not base64!!', ...file }, 'invalid_base64'],
    ['base64 of impossible length', { contentBase64: 'QUJDR', ...file }, 'invalid_base64'],
    ['empty text', { text: '' }, 'empty_content'],
    ['blank text', { text: ' \n\t ' }, 'empty_content'],
    ['text over 2 MiB of UTF-8', { text: 'é'.repeat(1024 * 1024 + 1) }, 'too_large'],
    [
      'file over 4 MiB',
      { contentBase64: Buffer.alloc(4 * 1024 * 1024 + 1, 97).toString('base64'), ...file },
      'too_large',
    ],
    [
      'unsupported type',
      { contentBase64: b64('data'), filename: 'a.bin', contentType: 'application/x-unsupported' },
      'unsupported_type',
    ],
  ] as const)('rejects %s with its code, leaving nothing behind', async (_label, item, code) => {
    const { services, ports } = coreHarness();
    const receipt = await services.capture.capture(shared, item);
    expect(receipt).toMatchObject({
      ok: false,
      status: 'rejected',
      dedup: false,
      id: null,
      file_id: null,
      reject_code: code,
      retryable: false,
      source_ref: null,
    });
    expect(receipt.detail.length).toBeGreaterThan(0);
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
    expect((ports.blobs as InMemoryBlobStore).blobs.size).toBe(0);
  });

  it('accepts exactly 4 MiB of file, unpadded base64 too', async () => {
    const { services, drain } = coreHarness();
    const receipt = await services.capture.capture(shared, {
      contentBase64: Buffer.alloc(4 * 1024 * 1024, 98).toString('base64'),
      ...file,
    });
    expect(receipt.status).toBe('created');
    expect((await services.capture.capture(shared, { contentBase64: 'aGk', ...file })).status).toBe('created');
    drain.stop(); // its thousands of passages are not this test's concern
  });

  it('reads base64 padding: one or two = where the length needs them, none at all, never more', async () => {
    const { services, drain } = coreHarness();
    const status = async (contentBase64: string) =>
      (await services.capture.capture(shared, { contentBase64, ...file })).reject_code ?? 'created';
    expect(await status('YQ==')).toBe('created');
    expect(await status('YWI=')).toBe('created');
    expect(await status('YWJj')).toBe('created');
    expect(await status('YWJjZA')).toBe('created');
    for (const bad of ['YQ=', 'YQ===', 'YWJj=', 'Y===', '=']) expect(await status(bad), bad).toBe('invalid_base64');
    const started = performance.now();
    expect(await status(`YWJj${'='.repeat(50_000)}`)).toBe('invalid_base64');
    expect(performance.now() - started).toBeLessThan(100);
    drain.stop();
  });

  it('accepts exactly 2 MiB of text', async () => {
    const { services, drain } = coreHarness();
    const receipt = await services.capture.capture(shared, { text: `${'ab\n'.repeat((2 * 1024 * 1024) / 3)}ab` });
    expect(receipt.status).toBe('created');
    drain.stop();
  });

  it.each(['put', 'claim'] as const)(
    'rejects backend_unavailable when the index fails, leaving nothing; a retry is created (%s)',
    async (where) => {
      const base = coreHarness();
      const index = withFault(base.ports.index, 'put', () => new BackendUnavailableError('index down'));
      const documents = withFault(base.ports.documents, 'claim', () => new BackendUnavailableError('table throttled'));
      const { services, ports } = coreHarness({ index, documents, blobs: base.ports.blobs });
      (where === 'put' ? index : documents).failing = true;
      const item = { contentBase64: b64('payload'), filename: 'p.txt', contentType: 'text/plain' };
      const failed = await services.capture.capture(shared, item);
      expect(failed).toMatchObject({
        ok: false,
        status: 'rejected',
        reject_code: 'backend_unavailable',
        retryable: true,
        id: null,
      });
      expect((base.ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
      expect((ports.blobs as InMemoryBlobStore).blobs.size).toBe(0);
      expect(await ports.index.keywordSearch(shared, { text: 'payload', limit: 5 })).toEqual([]);

      (where === 'put' ? index : documents).failing = false;
      expect((await services.capture.capture(shared, item)).status).toBe('created');
    },
  );

  it('rejects backend_unavailable when the usage ledger cannot record the capture, leaving nothing', async () => {
    const base = coreHarness();
    const usage = withFault(base.ports.usage, 'add', () => new BackendUnavailableError('ledger throttled'));
    usage.failing = true;
    const { services, ports } = coreHarness({ usage });
    const receipt = await services.capture.capture(shared, { text: 'charged or not stored' });
    expect(receipt).toMatchObject({ status: 'rejected', reject_code: 'backend_unavailable', retryable: true });
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
    expect(await ports.index.keywordSearch(shared, { text: 'charged', limit: 5 })).toEqual([]);
  });

  it('treats sending again the payload of a failed document as a retry: created, with a new id', async () => {
    const { services, ports } = coreHarness();
    const first = await services.capture.capture(shared, { text: 'ingest once failed' }, { interactive: true });
    (ports.documents as InMemoryDocumentStore).docs.get(first.id!)!.status = 'failed';
    const again = await services.capture.capture(shared, { text: 'ingest once failed' }, { interactive: true });
    expect(again.status).toBe('created');
    expect(again.id).not.toBe(first.id);
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(1);
    expect((await services.documents.get(shared, again.id!)).status).toBe('ready');
  });

  it('rejects a single capture backend_unavailable when the embedder fails in its request, leaving nothing', async () => {
    const base = coreHarness();
    const embedder = withFault(base.ports.embedder, 'embed', () => new BackendUnavailableError('model throttled'));
    embedder.failing = true;
    const { services, ports } = coreHarness({ embedder });
    expect((await services.capture.capture(shared, { text: 'x marks it' }, { interactive: true })).reject_code).toBe(
      'backend_unavailable',
    );
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
    expect(await ports.index.keywordSearch(shared, { text: 'marks', limit: 5 })).toEqual([]);
  });

  it('stores a batch item at once, findable by words, and ends it failed with a reason when the embedder never recovers', async () => {
    const base = coreHarness();
    const embedder = withFault(base.ports.embedder, 'embed', () => new BackendUnavailableError('model down'));
    embedder.failing = true;
    const { services, ports, drain } = coreHarness({ embedder });
    const receipt = await services.capture.capture(shared, { text: 'queued words survive' });
    expect(receipt.status).toBe('created');
    expect((await services.documents.get(shared, receipt.id!)).status).toBe('processing');
    expect((await ports.index.keywordSearch(shared, { text: 'survive', limit: 5 })).map((h) => h.itemId)).toEqual([
      receipt.id,
    ]);
    await drain.whenIdle();
    const doc = await services.documents.get(shared, receipt.id!);
    expect(doc).toMatchObject({ status: 'failed', findable_by_words: false, findable_by_meaning: false });
    expect(doc.failure_reason).toMatch(/^backend_unavailable: .*model down/);
    expect(await ports.index.keywordSearch(shared, { text: 'survive', limit: 5 })).toEqual([]);
  });

  it('lets a bug surface as an error (500), after undoing what was written', async () => {
    const base = coreHarness();
    const index = withFault(base.ports.index, 'put', () => new Error('bug'));
    index.failing = true;
    const { services, ports } = coreHarness({ index });
    await expect(services.capture.capture(shared, { text: 'boom' })).rejects.toThrow('bug');
    expect((ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
  });

  it('titles a document by its title, else its filename, else its first non-blank line', async () => {
    const { services, drain } = coreHarness();
    const titled = await services.capture.capture(shared, { text: 'x1', title: 'Given' });
    const named = await services.capture.capture(shared, {
      contentBase64: b64('x2'),
      filename: 'named.txt',
      contentType: 'text/plain',
    });
    const plain = await services.capture.capture(shared, { text: '\n\n  First real line  \nmore' });
    await drain.whenIdle();
    expect((await services.documents.get(shared, titled.id!)).title).toBe('Given');
    expect((await services.documents.get(shared, named.id!)).title).toBe('named.txt');
    const doc = await services.documents.get(shared, plain.id!);
    expect(doc).toMatchObject({
      title: 'First real line',
      kind: 'text',
      status: 'ready',
      line_count: 4,
      storage: 'service',
    });
    expect(doc.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
  });
});
