import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { keywordMatchExpression } from '../../lambdas/adapters/local/fts-query.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import type { IndexItem, LibraryRef } from '../../lambdas/core/model.js';
import { keywordQueryText, keywordTerms, MAX_QUERY_TERMS, queryTerms } from '../../lambdas/core/query-terms.js';

/** `count` distinct made-up words, word i of length 3 + (i % 7), none a stopword. */
const words = (count: number, prefix = 'w') =>
  Array.from({ length: count }, (_, i) => `${prefix}${i.toString(36).padStart(2, 'q')}${'z'.repeat(i % 7)}`);

describe("the keyword leg's term cap", () => {
  it('is 32 terms: the longest benchmark query has 24', () => {
    expect(MAX_QUERY_TERMS).toBe(32);
  });

  it('leaves a query of up to 32 terms exactly as it was, stopwords dropped as before', () => {
    const question =
      'What did the study of 1,200 patients find about tumor suppressor p53 mutations and the survival rates in the placebo group?';
    expect(keywordTerms(question)).toEqual(queryTerms(question));
    expect(keywordQueryText(question)).toBe(question);
    const full = words(32).join(' and the ');
    expect(keywordTerms(full)).toEqual(words(32));
    expect(keywordQueryText(full)).toBe(full);
    expect(keywordMatchExpression(full)).toBe(
      `{title body context} : (${words(32)
        .map((w) => `"${w}"`)
        .join(' OR ')})`,
    );
  });

  it("keeps the 32 longest terms of a longer query (the earlier on a tie), in the query's order", () => {
    const many = words(130);
    const query = many.join(' ');
    expect(query.length).toBeLessThanOrEqual(1000);
    const kept = keywordTerms(query);
    expect(kept).toHaveLength(32);
    // Lengths 3 + (i % 7): the 18 of length 9 (i % 7 = 6), then the first 14 of length 8 (i % 7 = 5).
    const expected = many.filter((_, i) => i % 7 === 6 || (i % 7 === 5 && i < 7 * 14));
    expect(kept).toEqual(expected);
    expect(keywordQueryText(query)).toBe(expected.join(' '));
    expect(keywordMatchExpression(query)!.match(/ OR /g)).toHaveLength(31);
    // Repeats and case do not count twice.
    expect(keywordTerms(`${query} ${query.toUpperCase()}`)).toEqual(expected);
  });
});

describe("a query's words", () => {
  it('drop the clitic after an apostrophe: the s of "what\'s" is no word to match every possessive by', () => {
    expect(queryTerms("what's the wifi code")).toEqual(['wifi', 'code']);
    expect(queryTerms('What’s on at Hannah’s?')).toEqual(['hannah']);
    expect(queryTerms("we'll say they're sure it isn't, I'd think; I'm told you've")).toEqual([
      'say',
      'sure',
      'isn',
      'think',
      'told',
    ]);
    // Not a clitic: a letter of its own, or an apostrophe inside a word.
    expect(queryTerms('vitamin d and plan s')).toEqual(['vitamin', 'd', 'plan', 's']);
    expect(queryTerms("O'Brien's rock 'n' roll")).toEqual(['o', 'brien', 'rock', 'n', 'roll']);
  });

  it("find no possessive by a question's clitic on the SQLite index", async () => {
    const index = new SqliteSearchIndex(openDatabase(':memory:'), 4, 'none');
    const ref: LibraryRef = { tenantId: 'ten_clitic', endUserId: null };
    const note = (n: number, text: string): IndexItem => ({
      itemId: `file_${String(n).padStart(26, '0')}`,
      kind: 'file_excerpt',
      title: null,
      sourceRef: null,
      contentDate: '2026-01-01T00:00:00.000000',
      text,
      passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text }],
      vectors: [],
    });
    await index.put(ref, note(1, "Mom's birthday is on March 14; she likes orchids."));
    await index.put(ref, note(2, 'The wifi password at the cabin is pinecone42.'));
    // Found by its own words (a hit through its neighbours' words, viaContext, is not).
    const ownWords = async (text: string) =>
      (await index.keywordSearch(ref, { text, limit: 10 })).filter((h) => !h.viaContext).map((h) => h.itemId);
    expect(await ownWords("what's the wifi code")).toEqual([note(2, '').itemId]);
    expect(await ownWords("when is mom's birthday")).toEqual([note(1, '').itemId]);
  });
});

describe('a 1,000-character query on the SQLite index', () => {
  const ref: LibraryRef = { tenantId: 'ten_terms', endUserId: null };
  const item = (n: number, text: string): IndexItem => ({
    itemId: `file_${String(n).padStart(26, '0')}`,
    kind: 'file_excerpt',
    title: `note ${n}`,
    sourceRef: null,
    contentDate: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000000`,
    text,
    passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text }],
    vectors: [],
  });

  it('runs two full-text lookups per kept term, not per word, and ranks exactly as the kept terms alone would', async () => {
    const db = openDatabase(':memory:');
    const index = new SqliteSearchIndex(db, 4, 'none');
    const vocabulary = words(200, 'v');
    // Every note holds many of the query's words, so every term costs a posting list.
    for (let n = 0; n < 40; n++)
      await index.put(ref, item(n, vocabulary.filter((_, i) => (i + n) % 3 !== 0).join(' ')));
    const query = vocabulary.join(' ').slice(0, 1000);
    expect(queryTerms(query).length).toBeGreaterThan(120);

    let lookups = 0;
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      const statement = prepare(sql);
      if (!/items_fts MATCH/.test(sql)) return statement;
      // A lookup is a run of a full-text statement, read as rows (.all) or as one row (.get).
      const all = statement.all.bind(statement);
      const get = statement.get.bind(statement);
      statement.all = ((...args: unknown[]) => {
        lookups += 1;
        return all(...args);
      }) as typeof statement.all;
      statement.get = ((...args: unknown[]) => {
        lookups += 1;
        return get(...args);
      }) as typeof statement.get;
      return statement;
    }) as typeof db.prepare;

    const hits = await index.keywordSearch(ref, { text: query, limit: 200 });
    // Per kept term, its count before the ranking and its holders among the hits after; and the two ranked queries
    // (whole items, and long items by their passages).
    expect(lookups).toBe(2 + 2 * MAX_QUERY_TERMS);
    expect(hits).toHaveLength(40);
    const same = await index.keywordSearch(ref, { text: keywordTerms(query).join(' '), limit: 200 });
    expect(hits.map((h) => [h.itemId, h.rawScore, h.coverage])).toEqual(
      same.map((h) => [h.itemId, h.rawScore, h.coverage]),
    );
  });
});
