import { describe, expect, it } from 'vitest';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { coreHarness } from '../support/core-harness.js';
import type { InMemoryBlobStore, InMemoryDocumentStore } from '../support/in-memory-ports.js';

const alice: LibraryRef = { tenantId: 'ten_r', endUserId: 'alice' };
const bob: LibraryRef = { tenantId: 'ten_r', endUserId: 'bob' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

type Harness = ReturnType<typeof coreHarness>;
const listed = async (h: Harness, ref: LibraryRef, sourceRef?: string) =>
  (await h.services.documents.list(ref, { limit: 100, sourceRef })).items.map((d) => d.id);
const grepped = async (h: Harness, ref: LibraryRef, pattern: string) => [
  ...new Set(
    (await h.services.grep.grep(ref, { pattern, caseSensitive: false, limit: 200 })).items.map((r) => r.file_id),
  ),
];
const searched = async (h: Harness, ref: LibraryRef, q: string) =>
  (await h.services.search.search(ref, { q, limit: 50 })).items.map((r) => r.id);

describe('replace by source_ref (replace_source_ref)', () => {
  it('removes the older versions everywhere once the new one is indexed; search, grep and the list show only the new', async () => {
    const h = coreHarness();
    const v1 = await h.services.capture.capture(alice, { text: 'kestrel notes version one', sourceRef: 'notes/k.md' });
    const plain = await h.services.capture.capture(alice, {
      text: 'kestrel notes, a second copy not replaced',
      sourceRef: 'notes/k.md',
    });
    const unrelated = await h.services.capture.capture(alice, {
      text: 'kestrel elsewhere',
      sourceRef: 'notes/other.md',
    });
    const v2 = await h.services.capture.capture(
      alice,
      { text: 'kestrel notes version two', sourceRef: 'notes/k.md', replaceSourceRef: true },
      { interactive: true },
    );
    expect(v2).toMatchObject({ status: 'created', source_ref: 'notes/k.md' });
    expect(v2.detail).toContain('replaced 2 older documents with this source_ref');
    await h.drain.whenIdle();
    expect(await listed(h, alice, 'notes/k.md')).toEqual([v2.id]);
    expect((await listed(h, alice)).sort()).toEqual([v2.id, unrelated.id].sort());
    expect((await grepped(h, alice, 'kestrel notes')).sort()).toEqual([v2.id]);
    expect(await searched(h, alice, 'kestrel notes version')).not.toContain(v1.id);
    expect(await searched(h, alice, 'kestrel notes version')).not.toContain(plain.id);
    expect((await h.services.documents.get(alice, v2.id!)).status).toBe('ready');
    await expect(h.services.documents.get(alice, v1.id!)).rejects.toThrow();
  });

  it('requires source_ref', async () => {
    const h = coreHarness();
    const r = await h.services.capture.capture(alice, { text: 'no ref', replaceSourceRef: true });
    expect(r).toMatchObject({ status: 'rejected', reject_code: 'invalid_item', retryable: false });
    expect(r.detail).toMatch(/^replace_source_ref:/);
    expect((h.ports.documents as InMemoryDocumentStore).docs.size).toBe(0);
  });

  it('a rejected replacement leaves the old version in place', async () => {
    const h = coreHarness();
    const v1 = await h.services.capture.capture(alice, { text: 'osprey v1', sourceRef: 'o.md' });
    const bad = await h.services.capture.capture(alice, {
      contentBase64: b64('osprey v2'),
      filename: 'o.bin',
      contentType: 'application/x-unsupported',
      sourceRef: 'o.md',
      replaceSourceRef: true,
    });
    expect(bad.status).toBe('rejected');
    const empty = await h.services.capture.capture(alice, { text: '   ', sourceRef: 'o.md', replaceSourceRef: true });
    expect(empty.status).toBe('rejected');
    expect(await listed(h, alice, 'o.md')).toEqual([v1.id]);
    expect(await grepped(h, alice, 'osprey')).toEqual([v1.id]);
  });

  it('a queued replacement replaces once extracted, is not listed before, and a failing one leaves the old', async () => {
    const h = coreHarness({}, { lanes: 1 });
    await h.services.capture.capture(alice, { text: 'heron v1', sourceRef: 'h.pdf' });
    const v2 = await h.services.capture.capture(alice, {
      contentBase64: b64('%SLOW heron v2'),
      filename: 'h.pdf',
      contentType: 'text/plain',
      sourceRef: 'h.pdf',
      replaceSourceRef: true,
    });
    expect(v2.status).toBe('created');
    expect(v2.detail).toContain('replaces older documents with this source_ref once its text is extracted');
    await h.drain.whenIdle();
    expect(await listed(h, alice, 'h.pdf')).toEqual([v2.id]);
    expect(await grepped(h, alice, 'heron')).toEqual([v2.id]);
    const failing = await h.services.capture.capture(alice, {
      contentBase64: b64('%SLOW heron v3'),
      filename: 'h.pdf',
      contentType: 'application/x-unsupported',
      sourceRef: 'h.pdf',
      replaceSourceRef: true,
    });
    expect(failing.status).toBe('created');
    await h.drain.whenIdle();
    expect((await h.services.documents.get(alice, failing.id!)).status).toBe('failed');
    expect(await grepped(h, alice, 'heron')).toEqual([v2.id]);
    expect((await listed(h, alice, 'h.pdf')).sort()).toEqual([v2.id, failing.id].sort());
  });

  it('dedup + replace: the existing document is the current version; the others with that source_ref go', async () => {
    const h = coreHarness();
    const a = await h.services.capture.capture(alice, { text: 'plover content A', sourceRef: 'p.md' });
    const b = await h.services.capture.capture(alice, { text: 'plover content B', sourceRef: 'p.md' });
    const again = await h.services.capture.capture(alice, {
      text: 'plover content A',
      sourceRef: 'p.md',
      replaceSourceRef: true,
    });
    expect(again).toMatchObject({ status: 'deduped', id: a.id, source_ref: 'p.md' });
    expect(again.detail).toContain('replaced 1 older document with this source_ref');
    expect(await listed(h, alice, 'p.md')).toEqual([a.id]);
    expect(await grepped(h, alice, 'plover')).toEqual([a.id]);
    expect(b.id).not.toBe(a.id);
  });

  it('never touches another library, and removes old bytes', async () => {
    const h = coreHarness();
    const blobs = h.ports.blobs as InMemoryBlobStore;
    const mine = await h.services.capture.capture(alice, {
      contentBase64: b64('wren bytes v1'),
      filename: 'w.txt',
      contentType: 'text/plain',
      sourceRef: 'w.txt',
    });
    const theirs = await h.services.capture.capture(bob, { text: 'wren for bob', sourceRef: 'w.txt' });
    const shared = await h.services.capture.capture(
      { tenantId: 'ten_r', endUserId: null },
      { text: 'wren shared', sourceRef: 'w.txt' },
    );
    expect(blobs.blobs.size).toBe(1);
    const v2 = await h.services.capture.capture(alice, { text: 'wren v2', sourceRef: 'w.txt', replaceSourceRef: true });
    expect(v2.detail).toContain('replaced 1 older document');
    expect(blobs.blobs.size).toBe(0);
    expect(await listed(h, alice, 'w.txt')).toEqual([v2.id]);
    expect(await listed(h, bob, 'w.txt')).toEqual([theirs.id]);
    expect(await listed(h, { tenantId: 'ten_r', endUserId: null }, 'w.txt')).toEqual([shared.id]);
    expect(await grepped(h, bob, 'wren')).toEqual([theirs.id]);
    expect(mine.id).not.toBe(v2.id);
  });

  it('batch items replace too, the later item winning', async () => {
    const h = coreHarness();
    const v1 = await h.services.capture.capture(alice, { text: 'finch v1', sourceRef: 'f.md' });
    const items = [
      { text: 'finch v2', sourceRef: 'f.md', replaceSourceRef: true },
      { text: 'finch v3', sourceRef: 'f.md', replaceSourceRef: true },
    ];
    const receipts = [];
    for (const item of items) receipts.push(await h.services.capture.capture(alice, item));
    await h.drain.whenIdle();
    expect(await listed(h, alice, 'f.md')).toEqual([receipts[1]!.id]);
    expect(await grepped(h, alice, 'finch')).toEqual([receipts[1]!.id]);
    expect(v1.id).not.toBe(receipts[1]!.id);
  });

  it('a reader polling grep and the list during many replaces always sees exactly one version', async () => {
    const h = coreHarness();
    await h.services.capture.capture(alice, { text: 'swift version 0', sourceRef: 's.md' });
    let done = false;
    const seen = { grep: [] as number[], list: [] as number[] };
    const reader = (async () => {
      while (!done) {
        seen.grep.push((await grepped(h, alice, 'swift version')).length);
        seen.list.push((await listed(h, alice, 's.md')).length);
        // No yield to the timers: the reader's awaits interleave with every await of the captures.
      }
    })();
    for (let i = 1; i <= 40; i++) {
      const r = await h.services.capture.capture(alice, {
        text: `swift version ${i}`,
        sourceRef: 's.md',
        replaceSourceRef: true,
      });
      expect(r.status).toBe('created');
    }
    done = true;
    await reader;
    await h.drain.whenIdle();
    expect(seen.grep.length).toBeGreaterThan(10);
    expect(new Set(seen.grep)).toEqual(new Set([1]));
    expect(new Set(seen.list)).toEqual(new Set([1]));
    expect(await grepped(h, alice, 'swift version 40')).toHaveLength(1);
  });

  it('a replacement whose record switch fails after the index switched is kept, and the worker finishes it', async () => {
    const h = coreHarness();
    const docs = h.ports.documents as InMemoryDocumentStore;
    const v1 = await h.services.capture.capture(alice, { text: 'lark v1', sourceRef: 'l.md' });
    const original = docs.completeReplacement.bind(docs);
    let failures = 1;
    docs.completeReplacement = async (...args) => {
      if (failures-- > 0) throw new Error('process stopped');
      return original(...args);
    };
    const v2 = await h.services.capture.capture(alice, { text: 'lark v2', sourceRef: 'l.md', replaceSourceRef: true });
    expect(v2.status).toBe('created');
    // Never neither: the new version is findable from the switch of the index on.
    expect(await grepped(h, alice, 'lark')).toEqual([v2.id]);
    await h.drain.whenIdle();
    expect(await listed(h, alice, 'l.md')).toEqual([v2.id]);
    await expect(h.services.documents.get(alice, v1.id!)).rejects.toThrow();
    expect((await h.services.documents.get(alice, v2.id!)).status).toBe('ready');
  });
});
