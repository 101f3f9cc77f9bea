import { describe, expect, it } from 'vitest';
import type { IndexItem, LibraryRef } from '../../lambdas/core/model.js';
import { indexItem } from '../contract/fixtures.js';
import { coreHarness } from '../support/core-harness.js';

const alice: LibraryRef = { tenantId: 't', endUserId: 'alice' };

/**
 * On AWS an index write and the library's generation live in different
 * stores: a writer whose entry lands just after an erasure removes it again
 * after its own check. This is the case where its Lambda dies in between, so
 * nobody ever removes the entry. Reads filter on the live generation, so the
 * end user's next library never shows it (docs/api-notes.md, "Erasure").
 */
describe('an index entry of an erased generation that nobody removed', () => {
  it('is never found by search, grep or chat, neither before the library exists again nor after a new capture', async () => {
    const { services, ports, db } = coreHarness();
    await services.capture.capture(alice, { text: 'The grey heron nests by the lake from February to June.' });
    const ended = (await ports.documents.libraryGeneration(alice))!;
    await services.endUsers.erase('t', 'alice');

    // The index forgets the ended generations: like OpenSearch, it can no longer refuse a write under one.
    db.prepare('DELETE FROM index_ended_generations').run();
    // The dead writers' puts under the ended generation (a document's entry, a chat's memory); their checks never ran.
    const residueText = 'The okapi residue marker hides in the forest.';
    const {
      vectors: [vector],
    } = await ports.embedder.embed([residueText], 'passage');
    const residue: IndexItem = indexItem(residueText, vector!, { title: 'Okapi residue' });
    const memory: IndexItem = indexItem('Remembered: the okapi residue marker hides in the forest.', vector!, {
      kind: 'chat',
    });
    await ports.index.put(alice, residue, ended);
    await ports.index.put(alice, memory, ended);
    // They are really there, tagged with the ended generation.
    expect(
      (await ports.index.keywordSearch(alice, { text: 'okapi residue', limit: 10 })).map((h) => h.itemId).sort(),
    ).toEqual([residue.itemId, memory.itemId].sort());

    // The library does not exist: nothing is read.
    expect((await services.search.search(alice, { q: 'okapi residue marker', limit: 10 })).items).toEqual([]);
    expect((await services.grep.grep(alice, { pattern: 'residue', caseSensitive: false, limit: 10 })).items).toEqual(
      [],
    );

    // The same end user captures again: a new library, a new generation.
    const fresh = await services.capture.capture(alice, { text: 'The okapi is a forest giraffe of central Africa.' });
    const found = await services.search.search(alice, { q: 'okapi residue marker forest', limit: 10 });
    expect(found.items.map((r) => r.id)).toEqual([fresh.id]);
    expect((await services.search.search(alice, { q: 'okapi residue', limit: 10, kinds: ['chat'] })).items).toEqual([]);
    const byMeaning = await services.search.legs(alice, residueText);
    expect([...byMeaning.keywordHits, ...byMeaning.vectorHits].map((h) => h.itemId)).not.toContain(residue.itemId);
    expect([...byMeaning.keywordHits, ...byMeaning.vectorHits].map((h) => h.itemId)).not.toContain(memory.itemId);
    expect((await services.grep.grep(alice, { pattern: 'residue', caseSensitive: false, limit: 10 })).items).toEqual(
      [],
    );
    expect(
      (await services.grep.grep(alice, { pattern: 'okapi', caseSensitive: false, limit: 10 })).items.map(
        (r) => r.file_id,
      ),
    ).toEqual([fresh.id]);
    expect(
      (await services.grep.grep(alice, { pattern: 'the', caseSensitive: false, fileId: residue.itemId, limit: 10 }))
        .items,
    ).toEqual([]);

    // Last (its question becomes memory of the new library): the chat is grounded on the new document only.
    const chat = await services.chat.chat(alice, 'Where does the okapi residue marker hide?');
    expect(chat.sources.map((s) => s.file_id)).not.toContain(residue.itemId);
    expect(chat.reply).not.toContain('residue marker hides');
  });
});

describe('an erasure that removes its index entries a step at a time', () => {
  it("takes the end user's captures meanwhile into a new library, and nothing of the old one is found while it runs", async () => {
    const { services } = coreHarness();
    const old = Array.from({ length: 450 }, (_, i) => ({
      ref: alice,
      item: { text: `Old walrus note ${i} about the erased library.` },
    }));
    await services.capture.captureBatch(old);
    const erasing = services.endUsers.erase('t', 'alice');
    // A turn later the erasure is under way (its removal yields between steps).
    await new Promise((resolve) => setImmediate(resolve));
    const during = await services.capture.capture(alice, { text: 'A fresh note about a narwhal, captured meanwhile.' });
    expect(during.status).toBe('created');
    const found = await services.search.search(alice, { q: 'walrus note erased library', limit: 10 });
    expect(JSON.stringify(found.items)).not.toContain('walrus');
    const report = await erasing;
    expect(report.documents_deleted).toBe(450);
    // The fresh note stays, in the end user's new library.
    expect((await services.documents.get(alice, during.id!))?.status).toBeDefined();
    expect((await services.search.search(alice, { q: 'narwhal', limit: 10 })).items.length).toBe(1);
  });
});
