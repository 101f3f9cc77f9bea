import { describe, expect, it } from 'vitest';
import { newId } from '../../lambdas/core/ids.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import type { ConversationStore, ConversationTurnRecord, DocumentStore } from '../../lambdas/core/ports.js';
import { timestamp } from './fixtures.js';

/**
 * The ConversationStore contract: every adapter (SQLite, DynamoDB, the unit
 * tests' fake) passes these. A store comes with the document store of the
 * same stack (on DynamoDB they share a table: an erasure's deleteLibrary
 * must leave the library's live conversations alone and take the rest).
 */
export function conversationStoreContract(
  name: string,
  make: () => Promise<{ conversations: ConversationStore; documents: DocumentStore }>,
) {
  describe(`ConversationStore contract: ${name}`, () => {
    const unique = () => `t-${Math.random().toString(36).slice(2)}`;
    const turn = (question: string, reply = `reply to ${question}`): ConversationTurnRecord => ({
      runId: newId('run'),
      question,
      reply,
      at: timestamp(),
    });

    it('keeps turns in order and reads the newest, oldest first', async () => {
      const { conversations } = await make();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'ann' };
      const id = newId('cnv');
      expect(await conversations.recentTurns(ref, id, 'g1', 4)).toEqual([]);
      const turns = [turn('Where did I park?'), turn('And when was that?'), turn('Which level?')];
      for (const t of turns) await conversations.append(ref, id, 'g1', t, 10);
      expect(await conversations.recentTurns(ref, id, 'g1', 10)).toEqual(turns);
      expect(await conversations.recentTurns(ref, id, 'g1', 2)).toEqual(turns.slice(1));
      expect(await conversations.recentTurns(ref, id, 'g1', 0)).toEqual([]);
    });

    it('keeps only the newest turns of a conversation, and another conversation of the library is untouched', async () => {
      const { conversations } = await make();
      const ref: LibraryRef = { tenantId: unique(), endUserId: null };
      const [a, b] = [newId('cnv'), newId('cnv')];
      const other = turn('another conversation');
      await conversations.append(ref, b, 'g', other, 3);
      const turns = Array.from({ length: 5 }, (_, i) => turn(`question ${i}`));
      for (const t of turns) await conversations.append(ref, a, 'g', t, 3);
      expect(await conversations.recentTurns(ref, a, 'g', 10)).toEqual(turns.slice(2));
      expect(await conversations.recentTurns(ref, b, 'g', 10)).toEqual([other]);
    });

    it('answers a conversation only in its own library and generation', async () => {
      const { conversations } = await make();
      const tenantId = unique();
      const ann: LibraryRef = { tenantId, endUserId: 'ann' };
      const id = newId('cnv');
      const t = turn('A private question about my dentist');
      await conversations.append(ann, id, 'g1', t, 10);
      expect(await conversations.recentTurns(ann, id, 'g1', 4)).toEqual([t]);
      for (const elsewhere of [
        { tenantId, endUserId: 'bob' },
        { tenantId, endUserId: null },
        { tenantId: unique(), endUserId: 'ann' },
        { tenantId: `${tenantId}#U`, endUserId: 'ann' },
      ]) {
        expect(await conversations.recentTurns(elsewhere, id, 'g1', 4)).toEqual([]);
      }
      expect(await conversations.recentTurns(ann, id, 'g2', 4)).toEqual([]);
      // A prefix of the id is another conversation.
      expect(await conversations.recentTurns(ann, id.slice(0, -1), 'g1', 4)).toEqual([]);
    });

    it('stores the text as it was, and replaces a turn appended again (the same run)', async () => {
      const { conversations } = await make();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'émile ☃' };
      const id = newId('cnv');
      const long = `${'Long reply with “quotes”, emoji 🦉 and\nlines.\n'.repeat(400)}end`;
      const first = turn('Qu’est-ce que c’est ? 🦉', long);
      await conversations.append(ref, id, 'g', first, 10);
      expect(await conversations.recentTurns(ref, id, 'g', 4)).toEqual([first]);
      const again = { ...first, reply: 'shorter' };
      await conversations.append(ref, id, 'g', again, 10);
      expect(await conversations.recentTurns(ref, id, 'g', 4)).toEqual([again]);
    });

    it('removes one turn (a chat that failed after storing it); a missing one is no error', async () => {
      const { conversations } = await make();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'ann' };
      const id = newId('cnv');
      const [kept, failed] = [turn('kept'), turn('failed')];
      await conversations.append(ref, id, 'g', kept, 10);
      await conversations.append(ref, id, 'g', failed, 10);
      await conversations.removeTurn(ref, id, failed.runId);
      await conversations.removeTurn(ref, id, failed.runId);
      await conversations.removeTurn({ tenantId: ref.tenantId, endUserId: 'bob' }, id, kept.runId);
      expect(await conversations.recentTurns(ref, id, 'g', 4)).toEqual([kept]);
    });

    it("removes a library's conversations, every generation but the one kept, and no other library's", async () => {
      const { conversations } = await make();
      const tenantId = unique();
      const ann: LibraryRef = { tenantId, endUserId: 'ann' };
      const bob: LibraryRef = { tenantId, endUserId: 'bob' };
      const [a, b, c] = [newId('cnv'), newId('cnv'), newId('cnv')];
      await conversations.append(ann, a, 'old', turn('one'), 10);
      await conversations.append(ann, a, 'old', turn('two'), 10);
      await conversations.append(ann, b, 'older', turn('three'), 10);
      const fresh = turn('begun after the erasure');
      await conversations.append(ann, c, 'new', fresh, 10);
      const bobs = turn('bob keeps his');
      await conversations.append(bob, a, 'old', bobs, 10);

      expect(await conversations.removeLibrary(ann, { keep: 'new' })).toBe(3);
      expect(await conversations.recentTurns(ann, a, 'old', 10)).toEqual([]);
      expect(await conversations.recentTurns(ann, b, 'older', 10)).toEqual([]);
      expect(await conversations.recentTurns(ann, c, 'new', 10)).toEqual([fresh]);
      expect(await conversations.recentTurns(bob, a, 'old', 10)).toEqual([bobs]);
      expect(await conversations.removeLibrary(ann)).toBe(1);
      expect(await conversations.recentTurns(ann, c, 'new', 10)).toEqual([]);
      expect(await conversations.removeLibrary(ann, { keep: null })).toBe(0);
    });

    it("lives beside the library's documents: erasing the library (deleteLibrary, then removeLibrary) leaves no turn, and a new library's conversations start empty", async () => {
      const { conversations, documents } = await make();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'carol@example.com' };
      const generation = await documents.touchLibrary(ref, timestamp());
      const id = newId('cnv');
      await conversations.append(ref, id, generation, turn('Where is my passport?'), 10);
      expect(await conversations.recentTurns(ref, id, generation, 4)).toHaveLength(1);
      // The document store's own erasure keeps the turns of a live generation only (on DynamoDB they share the partition).
      expect((await documents.deleteLibrary(ref)).generation).toBe(generation);
      await conversations.removeLibrary(ref, { keep: await documents.libraryGeneration(ref, { readOnly: true }) });
      expect(await conversations.recentTurns(ref, id, generation, 4)).toEqual([]);
      const next = await documents.touchLibrary(ref, timestamp());
      expect(await conversations.recentTurns(ref, id, next, 4)).toEqual([]);
      expect(await conversations.removeLibrary(ref)).toBe(0);
    });

    it('turns are not documents: listing and erasing the documents never count them', async () => {
      const { conversations, documents } = await make();
      const ref: LibraryRef = { tenantId: unique(), endUserId: 'dora' };
      const generation = await documents.touchLibrary(ref, timestamp());
      await conversations.append(ref, newId('cnv'), generation, turn('a question kept beside the documents'), 10);
      expect(await documents.listAll(ref)).toEqual([]);
      expect(await documents.list(ref, { limit: 10 })).toEqual([]);
      expect((await documents.listEndUsers(ref.tenantId, { limit: 10 })).map((u) => u.documentCount)).toEqual([0]);
      expect((await documents.deleteLibrary(ref)).documents).toEqual([]);
    });
  });
}
