import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import {
  allContexts,
  CONTEXT_READ_EACH_SIDE,
  contextOf,
  contextsAround,
  isShortMemory,
  MEMORY_CONTEXT,
} from '../../lambdas/core/memory-context.js';
import type { IndexItem, LibraryRef } from '../../lambdas/core/model.js';
import { axisVector, indexItem } from '../contract/fixtures.js';

/** Short memories read with the ones captured around them (core/memory-context.ts). */
const DIMENSIONS = 16;
const START = Date.UTC(2026, 10, 24, 9, 0, 0);
const at = (minutes: number) => `file_${ulid(START + minutes * 60_000)}`;

const newIndex = () => new SqliteSearchIndex(openDatabase(':memory:'), DIMENSIONS, 'test');
const memory = (text: string, minutes: number, overrides: Partial<IndexItem> = {}) =>
  indexItem(text, axisVector(DIMENSIONS, 1), { itemId: at(minutes), ...overrides });

const CONVERSATION = [
  'Joanna: Can I come over to watch the turtles play this weekend?',
  'Nate: Sure, they love an audience.',
  'Joanna: Alright, see you tomorrow!',
  'Nate: Bring snacks.',
  'Joanna: My new bike arrived today.',
  'Nate: Nice, what colour?',
];

describe('contextOf (the rule)', () => {
  const sequence = ['a', 'b', 'c', 'd', 'e', 'f'].map((text, i) => ({ itemId: at(i), text }));

  it('takes up to the set number of neighbours on each side, nearest first', () => {
    expect(MEMORY_CONTEXT.neighbours).toBe(2);
    expect(contextOf(sequence, 2).split('\n')).toEqual(['b', 'a', 'd', 'e']);
    expect(contextOf(sequence, 0).split('\n')).toEqual(['b', 'c']);
    expect(contextOf(sequence, 5).split('\n')).toEqual(['e', 'd']);
  });

  it('stops at a gap between sittings', () => {
    const gap = MEMORY_CONTEXT.maxGapMs / 60_000 + 1;
    const sittings = [0, 1, 2 + gap, 3 + gap].map((minutes, i) => ({ itemId: at(minutes), text: `m${i}` }));
    expect(contextOf(sittings, 1)).toBe('m0');
    expect(contextOf(sittings, 2)).toBe('m3');
    // An id without a capture time is a sitting of its own.
    const odd = [
      { itemId: at(0), text: 'a' },
      { itemId: 'file_not-a-ulid', text: 'odd' },
      { itemId: at(1), text: 'b' },
    ];
    expect(contextOf(odd, 0)).toBe('');
    expect(contextOf(odd, 1)).toBe('');
  });

  it('rewrites a library of thousands of memories in linear time', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      itemId: `file_${ulid(START + i * 1000)}`,
      text: `m${i}`,
    }));
    const started = performance.now();
    const contexts = many.map((_, i) => contextOf(many, i));
    expect(contexts[10_000]).toBe('m9999\nm9998\nm10001\nm10002');
    expect(performance.now() - started).toBeLessThan(15_000); // about 1 s here; decoding every time per memory took most of an hour
  });

  it('names the contexts a change touches: those within reach of its place, with what an index must read around it', () => {
    const m = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((text, i) => ({ itemId: at(i), text }));
    expect(CONTEXT_READ_EACH_SIDE).toBe(4);
    // d arrives between a-c and e-h: b, c, d, e, f change; a and g do not.
    const arrived = contextsAround(m.slice(0, 3), m[3]!, m.slice(4, 8));
    expect(arrived.map(({ memory, context }) => [memory.text, context])).toEqual([
      ['b', 'a\nc\nd'],
      ['c', 'b\na\nd\ne'],
      ['d', 'c\nb\ne\nf'],
      ['e', 'd\nc\nf\ng'],
      ['f', 'e\nd\ng\nh'],
    ]);
    // d left: b, c, e, f change, closing the gap.
    expect(
      contextsAround(m.slice(0, 3), null, m.slice(4, 8)).map(({ memory, context }) => [memory.text, context]),
    ).toEqual([
      ['b', 'a\nc\ne'],
      ['c', 'b\na\ne\nf'],
      ['e', 'c\nb\nf\ng'],
      ['f', 'e\nc\ng\nh'],
    ]);
    expect(allContexts(m.slice(0, 2)).map(({ context }) => context)).toEqual(['b', 'a']);
  });

  it('counts only text documents of one passage as short memories', () => {
    const one = memory('short', 0);
    expect(isShortMemory(one)).toBe(true);
    expect(isShortMemory({ ...one, kind: 'chat' })).toBe(false);
    expect(isShortMemory({ ...one, passages: [...one.passages, { ...one.passages[0]!, ordinal: 1 }] })).toBe(false);
  });
});

describe('SqliteSearchIndex: short memories in context', () => {
  const ref: LibraryRef = { tenantId: 't', endUserId: 'joanna' };

  async function converse(index: SqliteSearchIndex, texts = CONVERSATION, target: LibraryRef = ref) {
    const items = texts.map((text, i) => memory(text, i));
    for (const item of items) await index.put(target, item);
    return items;
  }

  it('finds a turn through the words of the turns around it, below the turns that hold them, and marks it', async () => {
    const index = newIndex();
    const items = await converse(index);
    const hits = await index.keywordSearch(ref, { text: 'turtles weekend', limit: 10 });
    const ids = hits.map((h) => h.itemId);
    expect(ids[0]).toBe(items[0]!.itemId);
    expect(hits[0]!.viaContext).toBeUndefined();
    // "Alright, see you tomorrow!" shares no word with the question, but sits two turns after it.
    const seeYou = hits.find((h) => h.itemId === items[2]!.itemId)!;
    expect(seeYou.viaContext).toBe(true);
    expect(seeYou.coverage).toBe(0);
    expect(seeYou.passage.text).toBe(CONVERSATION[2]); // the memory's own text, never its context
    // Three turns away is out of reach.
    expect(ids).not.toContain(items[3]!.itemId);
    expect(ids).not.toContain(items[4]!.itemId);
  });

  it('rewrites the neighbours when a memory is removed: its words no longer find them', async () => {
    const index = newIndex();
    const items = await converse(index);
    expect((await index.keywordSearch(ref, { text: 'bike', limit: 10 })).length).toBeGreaterThan(1);
    await index.remove(ref, items[4]!.itemId);
    expect(await index.keywordSearch(ref, { text: 'bike', limit: 10 })).toEqual([]);
    // And the gap it left is closed: turn 3 and turn 5 are now neighbours.
    const colour = await index.keywordSearch(ref, { text: 'colour', limit: 10 });
    expect(colour.map((h) => h.itemId)).toContain(items[3]!.itemId);
  });

  it('gives a memory captured later its neighbours, and them the newcomer', async () => {
    const index = newIndex();
    const [first] = await converse(index, ['Nate: The turtles are asleep.']);
    const later = memory('Joanna: See you at noon then.', 5);
    await index.put(ref, later);
    expect(
      (await index.keywordSearch(ref, { text: 'turtles', limit: 10 })).map((h) => [h.itemId, !!h.viaContext]),
    ).toEqual([
      [first!.itemId, false],
      [later.itemId, true],
    ]);
    expect(
      (await index.keywordSearch(ref, { text: 'noon', limit: 10 })).map((h) => [h.itemId, !!h.viaContext]),
    ).toEqual([
      [later.itemId, false],
      [first!.itemId, true],
    ]);
  });

  it('places a memory put out of capture order between its neighbours, and rewrites theirs', async () => {
    const index = newIndex();
    const [a, b, c, d] = ['alpha apples', 'bravo bananas', 'charlie cherries', 'delta dates'].map((text, i) =>
      memory(text, i),
    );
    for (const item of [a!, b!, d!, c!]) await index.put(ref, item); // c arrives last but was captured before d
    const found = async (word: string) =>
      (await index.keywordSearch(ref, { text: word, limit: 10 })).map((h) => h.itemId).sort();
    expect(await found('cherries')).toEqual([a!.itemId, b!.itemId, c!.itemId, d!.itemId].sort());
    // a's context is b and c (two after it), no longer d.
    expect(await found('dates')).toEqual([b!.itemId, c!.itemId, d!.itemId].sort());
  });

  it('keeps sittings apart, and long documents and other libraries out of a context', async () => {
    const index = newIndex();
    const gap = MEMORY_CONTEXT.maxGapMs / 60_000 + 1;
    const morning = memory('Planted tomatoes in the garden.', 0);
    const evening = memory('Dinner with Sam.', gap);
    const longText = ['Tomatoes need sun.', 'They need water.'].join('\n');
    const long = memory(longText, gap + 1, {
      passages: longText.split('\n').map((text, i) => ({ ordinal: i, lineStart: i + 1, lineEnd: i + 1, text })),
      vectors: [axisVector(DIMENSIONS, 1), axisVector(DIMENSIONS, 2)],
    });
    const elsewhere = memory('Tomatoes for the whole street.', gap + 2);
    for (const item of [morning, evening, long]) await index.put(ref, item);
    await index.put({ tenantId: 't', endUserId: 'bob' }, elsewhere);
    const hits = await index.keywordSearch(ref, { text: 'tomatoes', limit: 10 });
    expect(hits.map((h) => [h.itemId, !!h.viaContext]).sort()).toEqual(
      [
        [long.itemId, false],
        [morning.itemId, false],
      ].sort(),
    );
  });

  it('rewrites the remaining contexts when a library generation is removed, and builds them for a folder made before they existed', async () => {
    const index = newIndex();
    await index.put(ref, memory('Nate: Old turtle news.', 0), 'gen-1');
    const fresh = memory('Joanna: Fresh start.', 1);
    await index.put(ref, fresh, 'gen-2');
    expect((await index.keywordSearch(ref, { text: 'turtle', limit: 10 })).map((h) => h.itemId)).toContain(
      fresh.itemId,
    );
    await index.removeLibrary(ref, 'gen-1');
    expect(await index.keywordSearch(ref, { text: 'turtle', limit: 10 })).toEqual([]);
    expect((await index.keywordSearch(ref, { text: 'fresh', limit: 10 })).map((h) => h.itemId)).toEqual([fresh.itemId]);
  });
});

describe('SqliteSearchIndex: a data folder from before the context field', () => {
  it('is rebuilt once at start, with the contexts of its short memories', async () => {
    const db = openDatabase(':memory:');
    const ref: LibraryRef = { tenantId: 't', endUserId: 'joanna' };
    const first = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const items = CONVERSATION.slice(0, 3).map((text, i) => memory(text, i));
    for (const item of items) await first.put(ref, item);
    // The former shape: no context column, no short-memory column.
    db.exec(`DROP TABLE items_fts;
      CREATE VIRTUAL TABLE items_fts USING fts5(library, kind, title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
      INSERT INTO items_fts (rowid, library, kind, title, body) SELECT rowid, 'lib' || library_id, 'kfile', coalesce(title, ''), text FROM items;
      DROP INDEX items_short_memories;
      ALTER TABLE items DROP COLUMN short_memory;`);

    const reopened = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const hits = await reopened.keywordSearch(ref, { text: 'turtles', limit: 10 });
    expect(hits.map((h) => [h.itemId, !!h.viaContext])).toEqual([
      [items[0]!.itemId, false],
      [items[1]!.itemId, true],
      [items[2]!.itemId, true],
    ]);
  });
});
