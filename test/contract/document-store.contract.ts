import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../lambdas/core/filter.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import type { DocumentStore } from '../../lambdas/core/ports.js';
import { documentRecord, timestamp } from './fixtures.js';

/** The DocumentStore contract: every adapter (SQLite, DynamoDB) passes these. */
export function documentStoreContract(name: string, makeStore: () => Promise<DocumentStore>) {
  describe(`DocumentStore contract: ${name}`, () => {
    const unique = () => `t-${Math.random().toString(36).slice(2)}`;

    it('ends a library generation on deletion: claims under it are refused, a touch starts a new one', async () => {
      const store = await makeStore();
      const ref = { tenantId: unique(), endUserId: 'gen-user' };
      expect(await store.libraryGeneration(ref)).toBeNull();
      expect(await store.libraryGeneration(ref, { readOnly: true })).toBeNull();
      const first = await store.touchLibrary(ref, timestamp());
      expect(await store.touchLibrary(ref, timestamp())).toBe(first);
      expect(await store.libraryGeneration(ref)).toBe(first);
      expect(await store.libraryGeneration(ref, { readOnly: true })).toBe(first);
      const kept = documentRecord(ref);
      expect((await store.claim(kept, first)).claimed).toBe(true);
      const ended = await store.deleteLibrary(ref);
      expect(ended.generation).toBe(first);
      expect(ended.documents.map((d) => d.id)).toEqual([kept.id]);
      expect(await store.libraryGeneration(ref)).toBeNull();
      expect(await store.libraryGeneration(ref, { readOnly: true })).toBeNull();
      // A writer that began before the erasure: refused, nothing left.
      await expect(store.claim(documentRecord(ref), first)).rejects.toMatchObject({ name: 'LibraryErasedError' });
      const second = await store.touchLibrary(ref, timestamp());
      expect(second).not.toBe(first);
      await expect(store.claim(documentRecord(ref), first)).rejects.toMatchObject({ name: 'LibraryErasedError' });
      expect(await store.listAll(ref)).toHaveLength(0);
      expect((await store.claim(documentRecord(ref), second)).claimed).toBe(true);
      expect(await store.listAll(ref)).toHaveLength(1);
    });

    it('claims an identity exactly once under concurrency and hands the losers the winner', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      await store.touchLibrary(ref, timestamp());
      const sha256 = 'a'.repeat(64);
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(documentRecord(ref, { sha256 }))));
      const winners = claims.filter((c) => c.claimed);
      expect(winners).toHaveLength(1);
      const found = await store.findBySha256(ref, sha256);
      for (const c of claims) if (!c.claimed) expect(c.existing.id).toBe(found!.id);
    });

    it('keeps the same payload apart in different libraries', async () => {
      const store = await makeStore();
      const tenantId = unique();
      const shared: LibraryRef = { tenantId, endUserId: null };
      const alice: LibraryRef = { tenantId, endUserId: 'alice' };
      const sha256 = 'b'.repeat(64);
      for (const ref of [shared, alice]) {
        await store.touchLibrary(ref, timestamp());
        expect((await store.claim(documentRecord(ref, { sha256 }))).claimed).toBe(true);
      }
      const inShared = await store.findBySha256(shared, sha256);
      const inAlice = await store.findBySha256(alice, sha256);
      expect(inShared!.id).not.toBe(inAlice!.id);
      expect(await store.get(shared, inAlice!.id)).toBeNull();
      expect(await store.get({ tenantId: unique(), endUserId: 'alice' }, inAlice!.id)).toBeNull();
    });

    it('lists newest first, pages by key, and filters by source_ref', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'bob' };
      await store.touchLibrary(ref, timestamp());
      const docs = [];
      for (let i = 0; i < 5; i++) {
        const doc = documentRecord(ref, { sourceRef: i % 2 ? 'odd' : 'even' });
        await store.claim(doc);
        docs.push(doc);
      }
      const first = await store.list(ref, { limit: 2 });
      expect(first.map((d) => d.id)).toEqual([docs[4]!.id, docs[3]!.id]);
      const next = await store.list(ref, { limit: 10, after: { createdAt: first[1]!.createdAt, id: first[1]!.id } });
      expect(next.map((d) => d.id)).toEqual([docs[2]!.id, docs[1]!.id, docs[0]!.id]);
      const odd = await store.list(ref, { limit: 10, sourceRef: 'odd' });
      expect(odd.map((d) => d.id)).toEqual([docs[3]!.id, docs[1]!.id]);
    });

    it('replacement: a replacing document is unlisted until its switch, which lists it and deletes the replaced records; a failed one is listed', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'replacer' };
      const other: LibraryRef = { tenantId: ref.tenantId, endUserId: 'bystander' };
      await store.touchLibrary(ref, timestamp());
      await store.touchLibrary(other, timestamp());
      const old = documentRecord(ref, { sourceRef: 'notes/a.md' });
      const elsewhere = documentRecord(other, { sourceRef: 'notes/a.md' });
      await store.claim(old);
      await store.claim(elsewhere);
      const next = documentRecord(ref, { sourceRef: 'notes/a.md', status: 'processing', replacing: true });
      await store.claim(next);
      expect((await store.list(ref, { limit: 10, sourceRef: 'notes/a.md' })).map((d) => d.id)).toEqual([old.id]);
      expect((await store.list(ref, { limit: 10 })).map((d) => d.id)).toEqual([old.id]);
      expect((await store.list(ref, { limit: 10, includeReplacing: true })).map((d) => d.id)).toEqual([
        next.id,
        old.id,
      ]);
      expect(await store.get(ref, next.id)).toMatchObject({ id: next.id, replacing: true });
      // Another library's id is never deleted by this library's switch.
      expect(await store.completeReplacement(ref, next.id, [old.id, elsewhere.id])).toBe(true);
      expect((await store.list(ref, { limit: 10, sourceRef: 'notes/a.md' })).map((d) => d.id)).toEqual([next.id]);
      expect((await store.get(ref, next.id))!.replacing).toBeUndefined();
      expect(await store.get(ref, old.id)).toBeNull();
      expect(await store.get(other, elsewhere.id)).not.toBeNull();
      // Again (a resumed switch): nothing more happens.
      expect(await store.completeReplacement(ref, next.id, [old.id])).toBe(true);
      // A replacement that fails is listed (its reason readable) and replaced nothing.
      const failing = documentRecord(ref, { sourceRef: 'notes/a.md', status: 'processing', replacing: true });
      await store.claim(failing);
      await store.settle(ref, failing.id, { status: 'failed', reason: 'extraction_failed: corrupt' });
      expect((await store.list(ref, { limit: 10, sourceRef: 'notes/a.md' })).map((d) => d.id)).toEqual([
        failing.id,
        next.id,
      ]);
      expect((await store.get(ref, failing.id))!.replacing).toBeUndefined();
      // The switch of a document deleted meanwhile still deletes the replaced records.
      const gone = documentRecord(ref, { sourceRef: 'notes/a.md', status: 'processing', replacing: true });
      expect(await store.completeReplacement(ref, gone.id, [next.id])).toBe(false);
      expect(await store.get(ref, next.id)).toBeNull();
    });

    it('round-trips every field, and records a document through processing to ready', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'carol' };
      await store.touchLibrary(ref, timestamp());
      const doc = documentRecord(ref, {
        title: 'Ünïcode title',
        filename: 'notes.md',
        contentType: 'application/octet-stream',
        sourceRef: 's3://x/y',
        sizeBytes: 1234,
        kind: 'file',
        status: 'processing',
        lineCount: 0,
        pageCount: null,
        blobKey: `blobs/${ref.tenantId}/x`,
        passageCount: null,
        passagesEmbedded: 0,
        failureReason: null,
      });
      await store.claim(doc);
      expect(await store.get(ref, doc.id)).toEqual(doc);
      await store.recordExtraction(ref, doc.id, {
        kind: 'image',
        contentType: 'image/png',
        lineCount: 7,
        pageCount: 3,
        passageCount: 5,
      });
      await store.recordEmbedded(ref, doc.id, 2);
      await store.recordEmbedded(ref, doc.id, 2);
      expect(await store.get(ref, doc.id)).toEqual({
        ...doc,
        kind: 'image',
        contentType: 'image/png',
        lineCount: 7,
        pageCount: 3,
        passageCount: 5,
        passagesEmbedded: 4,
      });
      await store.settle(ref, doc.id, { status: 'ready' });
      expect(await store.get(ref, doc.id)).toMatchObject({ status: 'ready', passagesEmbedded: 5, failureReason: null });
      // Settling acts only on a document still processing: a ready one stays ready.
      await store.settle(ref, doc.id, { status: 'failed', reason: 'late' });
      expect((await store.get(ref, doc.id))!.status).toBe('ready');
      // Another library's ref changes nothing.
      await store.settle({ tenantId: unique(), endUserId: 'carol' }, doc.id, { status: 'failed', reason: 'x' });
      expect((await store.get(ref, doc.id))!.status).toBe('ready');
    });

    it('settles a processing document failed with its reason; a missing document is no error', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      await store.touchLibrary(ref, timestamp());
      const doc = documentRecord(ref, { status: 'processing', passageCount: null, passagesEmbedded: 0 });
      await store.claim(doc);
      await store.settle(ref, doc.id, { status: 'failed', reason: 'extraction_failed: corrupt' });
      expect(await store.get(ref, doc.id)).toMatchObject({
        status: 'failed',
        failureReason: 'extraction_failed: corrupt',
      });
      await store.settle(ref, 'file_01JAAAAAAAAAAAAAAAAAAAAAAA', { status: 'ready' });
      await store.recordEmbedded(ref, 'file_01JAAAAAAAAAAAAAAAAAAAAAAA', 1);
      expect(await store.get(ref, 'file_01JAAAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
    });

    it('deletes a document so the same payload can be claimed again', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      await store.touchLibrary(ref, timestamp());
      const doc = documentRecord(ref);
      await store.claim(doc);
      await store.delete(ref, doc.id);
      expect(await store.get(ref, doc.id)).toBeNull();
      expect((await store.claim(documentRecord(ref, { sha256: doc.sha256 }))).claimed).toBe(true);
    });

    it("lists a tenant's end users with counts, never another tenant's, and erases a library", async () => {
      const store = await makeStore();
      const tenantId = unique();
      const other = unique();
      for (const endUserId of ['zed', 'amy', 'kim']) {
        const ref = { tenantId, endUserId };
        await store.touchLibrary(ref, timestamp());
        await store.claim(documentRecord(ref));
      }
      await store.touchLibrary({ tenantId, endUserId: null }, timestamp());
      await store.touchLibrary({ tenantId: other, endUserId: 'intruder' }, timestamp());
      const users = await store.listEndUsers(tenantId, { limit: 10 });
      expect(users.map((u) => u.id)).toEqual(['amy', 'kim', 'zed']);
      expect(users.every((u) => u.documentCount === 1)).toBe(true);
      const page2 = await store.listEndUsers(tenantId, { limit: 10, after: 'amy' });
      expect(page2.map((u) => u.id)).toEqual(['kim', 'zed']);

      const kim = { tenantId, endUserId: 'kim' };
      expect(await store.listAll(kim)).toHaveLength(1);
      await store.deleteLibrary(kim);
      expect(await store.libraryExists(kim)).toBe(false);
      expect(await store.listAll(kim)).toHaveLength(0);
      expect((await store.listEndUsers(tenantId, { limit: 10 })).map((u) => u.id)).toEqual(['amy', 'zed']);
    });

    it('reports documents left processing before a point in time', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      await store.touchLibrary(ref, timestamp());
      const stuck = documentRecord(ref, { status: 'processing' });
      await store.claim(stuck);
      await store.claim(documentRecord(ref, { status: 'ready' }));
      const stale = await store.listStaleProcessing(timestamp());
      expect(stale.map((d) => d.id)).toContain(stuck.id);
      expect(stale.every((d) => d.status === 'processing')).toBe(true);
    });

    it('keeps metadata, updates title, source_ref and metadata, and lists by a filter with pages that skip nothing', async () => {
      const store = await makeStore();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'tagger' };
      await store.touchLibrary(ref, timestamp());
      const docs = Array.from({ length: 9 }, (_, i) =>
        documentRecord(ref, { metadata: i % 3 === 0 ? { project: 'apollo', n: i } : { project: 'other' } }),
      );
      for (const doc of docs) await store.claim(doc);
      expect((await store.get(ref, docs[0]!.id))!.metadata).toEqual({ project: 'apollo', n: 0 });

      const filter = parseFilter({ 'metadata.project': 'apollo' });
      const seen: string[] = [];
      let after: { createdAt: string; id: string } | undefined;
      for (;;) {
        const page = await store.list(ref, { limit: 2, after, filter });
        seen.push(...page.map((d) => d.id));
        if (page.length < 2) break;
        after = { createdAt: page[1]!.createdAt, id: page[1]!.id };
      }
      expect(seen).toEqual(
        docs
          .filter((_, i) => i % 3 === 0)
          .map((d) => d.id)
          .reverse(),
      );

      const updated = await store.update(ref, docs[1]!.id, {
        title: 'Retitled',
        sourceRef: 'notes/x',
        metadata: { project: 'apollo', n: 1 },
      });
      expect(updated).toMatchObject({
        id: docs[1]!.id,
        title: 'Retitled',
        sourceRef: 'notes/x',
        metadata: { project: 'apollo', n: 1 },
      });
      expect(
        (await store.list(ref, { limit: 10, filter: parseFilter({ 'metadata.n': { lte: 1 } }) })).map((d) => d.id),
      ).toEqual([docs[1]!.id, docs[0]!.id]);
      expect((await store.list(ref, { limit: 10, sourceRef: 'notes/x' })).map((d) => d.id)).toEqual([docs[1]!.id]);
      expect((await store.update(ref, docs[1]!.id, { sourceRef: null }))!.sourceRef).toBeNull();
      expect(
        await store.update({ tenantId: ref.tenantId, endUserId: 'someone-else' }, docs[1]!.id, { title: 'no' }),
      ).toBeNull();
    });
  });
}
