import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../lambdas/core/filter.js';
import type { GrepCandidate, LibraryRef } from '../../lambdas/core/model.js';
import type { SearchIndex } from '../../lambdas/core/ports.js';
import { axisVector, indexItem } from './fixtures.js';

const DIMENSIONS = 16;

async function collect(iterable: AsyncIterable<GrepCandidate>): Promise<GrepCandidate[]> {
  const out: GrepCandidate[] = [];
  for await (const c of iterable) out.push(c);
  return out;
}

/** The SearchIndex contract: every adapter (SQLite, OpenSearch) passes these. */
export function searchIndexContract(name: string, makeIndex: (dimensions: number) => Promise<SearchIndex>) {
  describe(`SearchIndex contract: ${name}`, () => {
    const unique = () => `t-${Math.random().toString(36).slice(2)}`;

    it('finds by words and by vector, only inside the caller library', async () => {
      const index = await makeIndex(DIMENSIONS);
      const tenantId = unique();
      const mine: LibraryRef = { tenantId, endUserId: 'alice' };
      const others: LibraryRef[] = [
        { tenantId, endUserId: null },
        { tenantId, endUserId: 'bob' },
        { tenantId: unique(), endUserId: 'alice' },
      ];
      const target = indexItem('The zebra migration crosses the river', axisVector(DIMENSIONS, 3));
      await index.put(mine, target);
      const neighbour = indexItem('Quarterly revenue grew', axisVector(DIMENSIONS, 9));
      await index.put(mine, neighbour);
      for (const ref of others)
        await index.put(ref, indexItem('The zebra migration crosses the river', axisVector(DIMENSIONS, 3)));

      const byWord = await index.keywordSearch(mine, { text: 'zebra migrations', limit: 10 });
      // The note captured beside it may follow, found through its neighbour's words (an index that reads
      // short memories in context: core/memory-context.ts); nothing of another library ever does.
      expect(byWord.filter((h) => !h.viaContext).map((h) => h.itemId)).toEqual([target.itemId]);
      expect(byWord[0]!.itemId).toBe(target.itemId);
      for (const hit of byWord) expect([target.itemId, neighbour.itemId]).toContain(hit.itemId);
      expect(byWord[0]!.rawScore).toBeGreaterThan(0);

      const byVector = await index.vectorSearch(mine, { vector: axisVector(DIMENSIONS, 3, 0.2), limit: 10 });
      expect(byVector[0]!.itemId).toBe(target.itemId);
      expect(byVector).toHaveLength(2);
      expect(byVector[0]!.rawScore).toBeGreaterThan(byVector[1]!.rawScore);

      expect(await index.keywordSearch({ tenantId, endUserId: 'nobody' }, { text: 'zebra', limit: 10 })).toEqual([]);
      expect(
        await index.vectorSearch(
          { tenantId: unique(), endUserId: null },
          { vector: axisVector(DIMENSIONS, 3), limit: 10 },
        ),
      ).toEqual([]);
    });

    it("reads a short memory with the ones captured around it, and forgets a removed one's words (core/memory-context.ts)", async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'joanna' };
      const turns = ['Can I come to watch the turtles play?', 'Alright, see you tomorrow!', 'Bring snacks.'].map(
        (text) => indexItem(text, axisVector(DIMENSIONS, 1), { title: null }),
      );
      for (const turn of turns) await index.put(ref, turn);
      const hits = await index.keywordSearch(ref, { text: 'turtles', limit: 10 });
      expect(hits.map((h) => [h.itemId, !!h.viaContext])).toEqual([
        [turns[0]!.itemId, false],
        [turns[1]!.itemId, true],
        [turns[2]!.itemId, true],
      ]);
      expect(hits[1]!.passage.text).toBe('Alright, see you tomorrow!');
      await index.remove(ref, turns[0]!.itemId);
      expect(await index.keywordSearch(ref, { text: 'turtles', limit: 10 })).toEqual([]);
    });

    it('takes an item without vectors (found by words at once), hands out its passages without vectors in order, and attaches them', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'alice' };
      const passages = [0, 1, 2, 3].map((ordinal) => ({
        ordinal,
        lineStart: ordinal + 1,
        lineEnd: ordinal + 1,
        text: `walrus note ${ordinal}`,
      }));
      const item = indexItem(passages.map((p) => p.text).join('\n'), axisVector(DIMENSIONS, 4), {
        passages,
        vectors: [],
      });
      await index.put(ref, item);
      expect((await index.keywordSearch(ref, { text: 'walrus', limit: 5 })).map((h) => h.itemId)).toEqual([
        item.itemId,
      ]);
      expect(await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 4), limit: 5 })).toEqual([]);

      const pending = await index.passagesWithoutVectors(ref, item.itemId, { limit: 2 });
      expect(pending.map((p) => [p.ordinal, p.text])).toEqual([
        [0, 'walrus note 0'],
        [1, 'walrus note 1'],
      ]);
      expect(
        (await index.passagesWithoutVectors(ref, item.itemId, { limit: 10, skip: new Set([0, 1]) })).map(
          (p) => p.ordinal,
        ),
      ).toEqual([2, 3]);
      // Another library sees none of them, and cannot attach to them.
      const other: LibraryRef = { tenantId: ref.tenantId, endUserId: 'bob' };
      expect(await index.passagesWithoutVectors(other, item.itemId, { limit: 10 })).toEqual([]);
      expect(
        await index.attachPassageVectors(other, item.itemId, [{ ordinal: 0, vector: axisVector(DIMENSIONS, 4) }]),
      ).toBe(false);

      expect(
        await index.attachPassageVectors(ref, item.itemId, [
          { ordinal: 0, vector: axisVector(DIMENSIONS, 5) },
          { ordinal: 2, vector: axisVector(DIMENSIONS, 4) },
        ]),
      ).toBe(true);
      expect((await index.passagesWithoutVectors(ref, item.itemId, { limit: 10 })).map((p) => p.ordinal)).toEqual([
        1, 3,
      ]);
      // From an ordinal on (the caller knows those below have theirs).
      expect(
        (await index.passagesWithoutVectors(ref, item.itemId, { limit: 10, from: 2 })).map((p) => p.ordinal),
      ).toEqual([3]);
      const hit = (await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 4), limit: 1 }))[0]!;
      expect([hit.itemId, hit.passage.ordinal]).toEqual([item.itemId, 2]);

      await index.remove(ref, item.itemId);
      expect(
        await index.attachPassageVectors(ref, item.itemId, [{ ordinal: 1, vector: axisVector(DIMENSIONS, 4) }]),
      ).toBe(false);
      expect(await index.passagesWithoutVectors(ref, item.itemId, { limit: 10 })).toEqual([]);
    });

    it('filters both legs by kind', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const doc = indexItem('apples and pears', axisVector(DIMENSIONS, 1));
      const chat = indexItem('apples and pears', axisVector(DIMENSIONS, 1), { kind: 'chat' });
      await index.put(ref, doc);
      await index.put(ref, chat);
      const kw = await index.keywordSearch(ref, { text: 'apples', limit: 10, kinds: ['chat'] });
      expect(kw.map((h) => [h.itemId, h.kind])).toEqual([[chat.itemId, 'chat']]);
      const vec = await index.vectorSearch(ref, {
        vector: axisVector(DIMENSIONS, 1),
        limit: 10,
        kinds: ['file_excerpt', 'image'],
      });
      expect(vec.map((h) => h.itemId)).toEqual([doc.itemId]);
    });

    it('returns passages with their line ranges and item details', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const item = indexItem('first line\nsecond line about otters', axisVector(DIMENSIONS, 2), {
        title: 'Otters',
        sourceRef: 'notes/otters.md',
        passages: [
          { ordinal: 0, lineStart: 1, lineEnd: 1, text: 'first line' },
          { ordinal: 1, lineStart: 2, lineEnd: 2, text: 'second line about otters' },
        ],
        vectors: [axisVector(DIMENSIONS, 5), axisVector(DIMENSIONS, 2)],
      });
      await index.put(ref, item);
      const [hit] = await index.keywordSearch(ref, { text: 'otters', limit: 1 });
      expect(hit).toMatchObject({
        itemId: item.itemId,
        kind: 'file_excerpt',
        title: 'Otters',
        sourceRef: 'notes/otters.md',
        contentDate: item.contentDate,
        passage: { ordinal: 1, lineStart: 2, lineEnd: 2, text: 'second line about otters' },
      });
    });

    it('removes an item from both legs and from grep; re-putting an item replaces it', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const item = indexItem('walrus tusks', axisVector(DIMENSIONS, 4));
      await index.put(ref, item);
      await index.put(ref, {
        ...item,
        text: 'walrus whiskers',
        passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text: 'walrus whiskers' }],
      });
      expect(await index.keywordSearch(ref, { text: 'tusks', limit: 10 })).toEqual([]);
      expect(await index.keywordSearch(ref, { text: 'whiskers', limit: 10 })).toHaveLength(1);
      await index.remove(ref, item.itemId);
      expect(await index.keywordSearch(ref, { text: 'walrus', limit: 10 })).toEqual([]);
      expect(await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 4), limit: 10 })).toEqual([]);
      expect(await collect(index.grepCandidates(ref, { pattern: 'walrus', caseSensitive: false }))).toEqual([]);
    });

    it('put with replaces: the replaced items of the same library leave in the same write, other libraries untouched', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const other: LibraryRef = { tenantId: ref.tenantId, endUserId: 'other' };
      const v1 = indexItem('narwhal version one', axisVector(DIMENSIONS, 5));
      const v2 = indexItem('narwhal version two', axisVector(DIMENSIONS, 6));
      const theirs = indexItem('narwhal belongs to another library', axisVector(DIMENSIONS, 7));
      await index.put(ref, v1);
      await index.put(ref, v2);
      await index.put(other, theirs);
      const v3 = indexItem('narwhal version three', axisVector(DIMENSIONS, 8), { vectors: [] });
      await index.put(ref, v3, undefined, { replaces: [v1.itemId, v2.itemId, theirs.itemId, 'file_NOTTHERE'] });
      expect((await index.keywordSearch(ref, { text: 'narwhal', limit: 10 })).map((h) => h.itemId)).toEqual([
        v3.itemId,
      ]);
      expect(await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 5), limit: 10 })).toEqual([]);
      expect(
        (await collect(index.grepCandidates(ref, { pattern: 'narwhal', caseSensitive: false }))).map((c) => c.itemId),
      ).toEqual([v3.itemId]);
      expect(await index.documentText(ref, v1.itemId)).toBeNull();
      expect((await index.keywordSearch(other, { text: 'narwhal', limit: 10 })).map((h) => h.itemId)).toEqual([
        theirs.itemId,
      ]);
    });

    it('removes one generation of a library and leaves a newer one', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'generations' };
      const old = indexItem('old text', axisVector(DIMENSIONS, 1));
      const fresh = indexItem('new text', axisVector(DIMENSIONS, 2));
      await index.put(ref, old, 'gen-old');
      await index.put(ref, fresh, 'gen-new');
      expect(await index.removeLibrary(ref, 'gen-old')).toEqual({ file_excerpt: 1, image: 0, chat: 0, creation: 0 });
      expect(await index.documentText(ref, old.itemId)).toBeNull();
      expect(await index.documentText(ref, fresh.itemId)).toBe('new text');
    });

    it('reads only the generation named: an entry of an ended generation is never returned, untagged (older) entries are', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'reborn' };
      // Written under the ended generation and never removed (its writer died before its own check).
      const stale = indexItem('okapi residue line', axisVector(DIMENSIONS, 6));
      const staleMemory = indexItem('okapi remembered reply', axisVector(DIMENSIONS, 6, 0.1), { kind: 'chat' });
      const live = indexItem('okapi live line', axisVector(DIMENSIONS, 6, 0.2));
      const legacy = indexItem('okapi legacy line', axisVector(DIMENSIONS, 6, 0.3)); // written before generations: no tag
      await index.put(ref, stale, 'gen-ended');
      await index.put(ref, staleMemory, 'gen-ended');
      await index.put(ref, live, 'gen-live');
      await index.put(ref, legacy);
      const ids = (hits: Array<{ itemId: string }>) => hits.map((h) => h.itemId).sort();
      const expected = [live.itemId, legacy.itemId].sort();

      const generation = 'gen-live';
      expect(ids(await index.keywordSearch(ref, { text: 'okapi', limit: 10, generation }))).toEqual(expected);
      expect(await index.keywordSearch(ref, { text: 'remembered', limit: 10, kinds: ['chat'], generation })).toEqual(
        [],
      );
      expect(ids(await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 6), limit: 10, generation }))).toEqual(
        expected,
      );
      expect(
        ids(await collect(index.grepCandidates(ref, { pattern: 'okapi', caseSensitive: false, generation }))),
      ).toEqual(expected);
      expect(
        await collect(
          index.grepCandidates(ref, { pattern: 'residue', caseSensitive: true, itemId: stale.itemId, generation }),
        ),
      ).toEqual([]);
      expect(await index.documentText(ref, stale.itemId, generation)).toBeNull();
      expect(await index.documentText(ref, live.itemId, generation)).toBe('okapi live line');
      expect(await index.documentText(ref, legacy.itemId, generation)).toBe('okapi legacy line');
      // '' is a library made before generations (ports.ts, libraryGeneration readOnly): its untagged entries only.
      expect(ids(await index.keywordSearch(ref, { text: 'okapi', limit: 10, generation: '' }))).toEqual([
        legacy.itemId,
      ]);
      expect(
        ids(await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 6), limit: 10, generation: '' })),
      ).toEqual([legacy.itemId]);
      // Without a generation (tools with no library record) every entry is read.
      expect(ids(await index.keywordSearch(ref, { text: 'okapi', limit: 10 }))).toHaveLength(4);
    });

    it('removes a whole library and counts what it removed by kind', async () => {
      const index = await makeIndex(DIMENSIONS);
      const tenantId = unique();
      const ref: LibraryRef = { tenantId, endUserId: 'erase-me' };
      const keep: LibraryRef = { tenantId, endUserId: 'keep-me' };
      await index.put(ref, indexItem('one', axisVector(DIMENSIONS, 1)));
      await index.put(ref, indexItem('two', axisVector(DIMENSIONS, 2), { kind: 'chat' }));
      await index.put(ref, indexItem('three', axisVector(DIMENSIONS, 3), { kind: 'chat' }));
      await index.put(keep, indexItem('one', axisVector(DIMENSIONS, 1)));
      expect(await index.removeLibrary(ref)).toEqual({ file_excerpt: 1, image: 0, chat: 2, creation: 0 });
      expect(await index.keywordSearch(ref, { text: 'one two three', limit: 10 })).toEqual([]);
      expect(await index.keywordSearch(keep, { text: 'one', limit: 10 })).toHaveLength(1);
    });

    it("reads one document's text as grep reads it, in its own library only, and never a chat", async () => {
      const index = await makeIndex(DIMENSIONS);
      const tenantId = unique();
      const mine: LibraryRef = { tenantId, endUserId: 'alice' };
      const doc = indexItem('first line\nsecond line', axisVector(DIMENSIONS, 1));
      const chat = indexItem('a remembered reply', axisVector(DIMENSIONS, 2), { kind: 'chat' });
      await index.put(mine, doc);
      await index.put(mine, chat);
      expect(await index.documentText(mine, doc.itemId)).toBe('first line\nsecond line');
      expect(await index.documentText(mine, chat.itemId)).toBeNull();
      expect(await index.documentText(mine, 'file_missing')).toBeNull();
      for (const other of [
        { tenantId, endUserId: null },
        { tenantId, endUserId: 'bob' },
        { tenantId: unique(), endUserId: 'alice' },
      ]) {
        expect(await index.documentText(other, doc.itemId)).toBeNull();
      }
    });

    it('grep candidates: every document containing the pattern, newest first, library only, documents only', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const older = indexItem('the code is a.b*c(1) here', axisVector(DIMENSIONS, 1));
      const newer = indexItem('x\nA.B*C(1) shouted', axisVector(DIMENSIONS, 1), { kind: 'image' });
      const without = indexItem('abc1 nothing literal', axisVector(DIMENSIONS, 1));
      const chat = indexItem('chat says a.b*c(1)', axisVector(DIMENSIONS, 1), { kind: 'chat' });
      for (const item of [older, newer, without, chat]) await index.put(ref, item);
      await index.put({ tenantId: unique(), endUserId: null }, indexItem('a.b*c(1)', axisVector(DIMENSIONS, 1)));

      const found = await collect(index.grepCandidates(ref, { pattern: 'a.b*c(1)', caseSensitive: false }));
      const ids = found.map((c) => c.itemId);
      expect(ids).toContain(older.itemId);
      expect(ids).toContain(newer.itemId);
      expect(ids).not.toContain(chat.itemId);
      expect(ids.indexOf(newer.itemId)).toBeLessThan(ids.indexOf(older.itemId));
      expect(found.find((c) => c.itemId === older.itemId)!.text).toBe(older.text);

      const sensitive = (await collect(index.grepCandidates(ref, { pattern: 'a.b*c(1)', caseSensitive: true }))).map(
        (c) => c.itemId,
      );
      expect(sensitive).toContain(older.itemId);

      const short = (await collect(index.grepCandidates(ref, { pattern: 'x', caseSensitive: false }))).map(
        (c) => c.itemId,
      );
      expect(short).toContain(newer.itemId);

      const onlyOlder = await collect(
        index.grepCandidates(ref, { pattern: 'code', caseSensitive: false, itemId: older.itemId }),
      );
      expect(onlyOlder.map((c) => c.itemId)).toEqual([older.itemId]);

      const resumed = await collect(
        index.grepCandidates(ref, {
          pattern: 'a.b*c(1)',
          caseSensitive: false,
          startAt: { createdAt: older.contentDate, id: older.itemId },
        }),
      );
      expect(resumed.map((c) => c.itemId)).toEqual([older.itemId]);
    });

    it('grep candidates walk many documents in order without repeating', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const items = [];
      for (let i = 0; i < 150; i++) {
        const item = indexItem(`entry ${i} has the needle`, axisVector(DIMENSIONS, i));
        items.push(item);
        await index.put(ref, item);
      }
      const found = await collect(index.grepCandidates(ref, { pattern: 'needle', caseSensitive: false }));
      expect(found.map((c) => c.itemId)).toEqual(items.map((i) => i.itemId).reverse());
      // Resuming at a document reads it again; resuming after it (read whole) starts with the next older one.
      const at = items[100]!;
      const key = { createdAt: at.contentDate, id: at.itemId };
      const resumedAt = await collect(
        index.grepCandidates(ref, { pattern: 'needle', caseSensitive: false, startAt: key }),
      );
      expect(resumedAt.map((c) => c.itemId)).toEqual(
        items
          .slice(0, 101)
          .map((i) => i.itemId)
          .reverse(),
      );
      const resumedAfter = await collect(
        index.grepCandidates(ref, { pattern: 'ne', caseSensitive: false, startAfter: key }),
      );
      expect(resumedAfter.map((c) => c.itemId)).toEqual(
        items
          .slice(0, 100)
          .map((i) => i.itemId)
          .reverse(),
      );
      expect(resumedAfter[0]!.text).toBe(items[99]!.text);
    });

    it('filters inside both legs and grep, returns metadata, and sees updateItem at once (core/filter.ts)', async () => {
      const index = await makeIndex(DIMENSIONS);
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'filterer' };
      const apollo = indexItem('The zebra launch plan', axisVector(DIMENSIONS, 2), {
        metadata: { project: 'apollo', year: 2024, tags: ['plan'] },
        documentKind: 'text',
        contentType: 'text/plain',
      });
      const gemini = indexItem('The zebra launch review', axisVector(DIMENSIONS, 2, 0.1), {
        metadata: { project: 'gemini', year: 2025 },
        documentKind: 'file',
        contentType: 'application/pdf',
        sourceRef: 'docs/review.pdf',
      });
      // Many near neighbours that do not match: a post-filter of the top few would lose the match.
      const crowd = Array.from({ length: 30 }, (_, i) =>
        indexItem(`The zebra launch note ${i}`, axisVector(DIMENSIONS, 2, 0.01 * i), {
          metadata: { project: 'crowd' },
          documentKind: 'text',
        }),
      );
      for (const item of [...crowd, apollo, gemini]) await index.put(ref, item);
      const only = (filter: Record<string, unknown>) => parseFilter(filter);

      const keyword = await index.keywordSearch(ref, {
        text: 'zebra launch',
        limit: 3,
        filter: only({ 'metadata.project': 'apollo' }),
      });
      expect(keyword.map((h) => [h.itemId, h.metadata])).toEqual([[apollo.itemId, apollo.metadata]]);
      const vector = await index.vectorSearch(ref, {
        vector: axisVector(DIMENSIONS, 2),
        limit: 2,
        filter: only({ 'metadata.year': { gte: 2025 } }),
      });
      expect(vector.map((h) => h.itemId)).toEqual([gemini.itemId]);
      const either = await index.vectorSearch(ref, {
        vector: axisVector(DIMENSIONS, 2),
        limit: 5,
        filter: only({ or: [{ 'metadata.tags': 'plan' }, { source_ref: { prefix: 'docs/' } }] }),
      });
      expect(either.map((h) => h.itemId).sort()).toEqual([apollo.itemId, gemini.itemId].sort());
      const notCrowd = await index.keywordSearch(ref, {
        text: 'zebra',
        limit: 5,
        filter: only({ and: [{ not: { 'metadata.project': 'crowd' } }, { kind: { in: ['text', 'file'] } }] }),
      });
      expect(notCrowd.map((h) => h.itemId).sort()).toEqual([apollo.itemId, gemini.itemId].sort());
      const grep = await collect(
        index.grepCandidates(ref, {
          pattern: 'zebra',
          caseSensitive: false,
          filter: only({ content_type: 'application/pdf' }),
        }),
      );
      expect(grep.map((c) => [c.itemId, c.metadata])).toEqual([[gemini.itemId, gemini.metadata]]);

      expect(await index.updateItem(ref, gemini.itemId, { metadata: { project: 'apollo' }, title: 'Renamed' })).toBe(
        true,
      );
      const after = await index.keywordSearch(ref, {
        text: 'zebra launch',
        limit: 5,
        filter: only({ 'metadata.project': 'apollo' }),
      });
      expect(after.map((h) => h.itemId).sort()).toEqual([apollo.itemId, gemini.itemId].sort());
      expect(after.find((h) => h.itemId === gemini.itemId)!.title).toBe('Renamed');
      expect(
        await index.vectorSearch(ref, {
          vector: axisVector(DIMENSIONS, 2),
          limit: 5,
          filter: only({ 'metadata.year': 2025 }),
        }),
      ).toEqual([]);
      expect(await index.updateItem(ref, 'file_00000000000000000000000000', { title: 'x' })).toBe(false);
    });
  });
}
