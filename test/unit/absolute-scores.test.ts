import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_SCALE } from '../../lambdas/core/chat/calibration.js';
import type { PassageHit } from '../../lambdas/core/model.js';
import type { Embedder } from '../../lambdas/core/ports.js';
import {
  absoluteScores,
  MEANING_FLOOR,
  meansSomething,
  type ScoredItem,
  withoutNeighbourEvidence,
} from '../../lambdas/core/relevance-score.js';
import { type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { ShiftedEmbedder } from '../support/shifted-embedder.js';

/** API.md "Scores and `min_score`": a score says how relevant a result is at all, the same with every embedder. */
const hit = (itemId: string, rawScore: number): PassageHit =>
  ({ itemId, rawScore, passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text: '' } }) as unknown as PassageHit;

/** The best result's score, which is the query's relevance: its hybrid score is 1 and its words are its own. */
const queryRelevance = async (
  q: string,
  ranked: ScoredItem[],
  vectorHits: PassageHit[],
  scale: Parameters<typeof absoluteScores>[4],
) =>
  absoluteScores(
    q,
    ranked.map((item) => ({ ...item, fromKeyword: true })),
    [],
    vectorHits,
    scale,
    await meansSomething(q),
  )[0]!;

describe("a query's absolute relevance", () => {
  it('is 0 for results that share neither words nor meaning, and high for one holding every word', async () => {
    const ranked = [{ itemId: 'a', passageText: 'The ferry leaves at noon from pier four.', score: 1 }];
    expect(await queryRelevance('zzqqxxjj', ranked, [hit('a', MEANING_FLOOR - 0.05)], REFERENCE_SCALE)).toBe(0);
    expect(await queryRelevance('ferry pier noon', ranked, [hit('a', MEANING_FLOOR)], REFERENCE_SCALE)).toBeGreaterThan(
      0.9,
    );
  });

  it('reads no meaning into a query of keyboard noise, a code or a name alone: its words are its only evidence', async () => {
    // "ok", "hello?": texts that say as little as noise sit near it, at a cosine a paraphrase has.
    const ok = [{ itemId: 'a', passageText: 'ok', score: 1 }];
    for (const noise of ['zzqqxxjj', 'xkcdqwpz bbrrtt', 'GZ-777', '👍'])
      expect(await queryRelevance(noise, ok, [hit('a', 0.5)], REFERENCE_SCALE), noise).toBe(0);
    // A word the dictionary knows, or a script it has no dictionary for, is read by meaning as before.
    expect(await queryRelevance('how are you', ok, [hit('a', 0.5)], REFERENCE_SCALE)).toBeGreaterThan(0.7);
    expect(await queryRelevance('お元気ですか', ok, [hit('a', 0.5)], REFERENCE_SCALE)).toBeGreaterThan(0.7);
    // A rare word the dictionary knows (no everyday word beside it) is read by meaning too.
    expect(await queryRelevance('mortgage', ok, [hit('a', 0.5)], REFERENCE_SCALE)).toBeGreaterThan(0.7);
    // Its words still count: a note holding the code scores high.
    const code = [{ itemId: 'b', passageText: 'Door code GZ-777 for the side gate.', score: 1 }];
    expect(await queryRelevance('GZ-777', code, [hit('b', 0.2)], REFERENCE_SCALE)).toBeGreaterThan(0.9);
  });

  it("takes a neighbour's evidence out of its score without pulling a later result down", () => {
    // A paraphrase (0.6) ranked after a note found through its neighbours' words (own meaning 0.1).
    expect(withoutNeighbourEvidence([1, 0.55, 0.54, 0.2], [null, 0.1, null, 0.05])).toEqual([1, 0.54, 0.54, 0.05]);
    expect(withoutNeighbourEvidence([1, 0.55, 0.5, 0.2], [null, 0.1, 0.05, null])).toEqual([1, 0.2, 0.2, 0.2]);
    expect(withoutNeighbourEvidence([0.9, 0.5], [null, 0.7])).toEqual([0.9, 0.5]);
  });

  it("reads cosines on the embedder's own scale: the same evidence scores the same on two scales", async () => {
    const ranked = [{ itemId: 'a', passageText: 'unrelated words only', score: 1 }];
    const shifted = { related: (REFERENCE_SCALE.related + 1) / 2, unrelated: (REFERENCE_SCALE.unrelated + 1) / 2 };
    const onReference = await queryRelevance('a question', ranked, [hit('a', 0.4)], REFERENCE_SCALE);
    expect(await queryRelevance('a question', ranked, [hit('a', (0.4 + 1) / 2)], shifted)).toBeCloseTo(onReference, 6);
    expect(onReference).toBeGreaterThan(0.4);
    // Uncalibrated, the shifted cosine would read as a near-perfect match.
    expect(await queryRelevance('a question', ranked, [hit('a', (0.4 + 1) / 2)], undefined)).toBeGreaterThan(0.99);
  });
});

describe('search scores and min_score over the local stack', () => {
  const notes = [
    'The plumber comes on Wednesday between 8 and 10 to replace the trap under the bathroom sink.',
    'Book club meets at Hannah’s on the 9th; next month we read The Remains of the Day.',
    'Electricity bill for the quarter: £312, up from £248, mostly the office heater.',
  ];

  const ref = { tenantId: 't', endUserId: null };

  /** A fresh local stack holding the notes (captured one after another, as in one sitting), given to `use`. */
  async function withNotes<T>(embedder: Embedder, use: (stack: LocalStack) => Promise<T>): Promise<T> {
    const dir = mkdtempSync(join(tmpdir(), 'library-scores-'));
    const stack = await openLocalStack({ dataDir: dir, embedder });
    try {
      for (const text of notes) await stack.services.capture.capture(ref, { text });
      await stack.settled();
      return await use(stack);
    } finally {
      stack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const scoresWith = (embedder: Embedder, queries: string[], minScore?: number) =>
    withNotes(embedder, async (stack) => {
      const out: number[][] = [];
      for (const q of queries)
        out.push((await stack.services.search.search(ref, { q, limit: 10, minScore })).items.map((r) => r.score));
      return out;
    });

  it("scores an unrelated query low whatever the library holds, a query in the notes' words high; the same with a shifted-scale embedder", async () => {
    const queries = ['zzqqxxjj', 'plumber bathroom sink trap', 'electricity bill quarter'];
    const plain = await scoresWith(new HashingEmbedder(), queries);
    expect(plain[0]![0]).toBeLessThan(0.1); // the best hit of nonsense is not 1
    expect(plain[1]![0]).toBeGreaterThan(0.8);
    expect(plain[2]![0]).toBeGreaterThan(0.8);
    const shifted = await scoresWith(new ShiftedEmbedder(new HashingEmbedder()), queries);
    shifted.forEach((scores, i) => scores.forEach((score, j) => expect(score).toBeCloseTo(plain[i]![j]!, 6)));
  });

  it('scores a note found only through the words of the notes captured beside it low: it shares neither words nor meaning with the query', async () => {
    // Short notes of one sitting: each is read with its neighbours' words (core/memory-context.ts).
    await withNotes(new HashingEmbedder(), async (stack) => {
      const page = await stack.services.search.search(ref, { q: 'plumber bathroom sink trap', limit: 10 });
      const [best, ...others] = page.items;
      expect(best).toMatchObject({ snippet: notes[0], from_keyword: true });
      expect(best!.score).toBeGreaterThan(0.8);
      expect(others.length).toBeGreaterThan(0);
      for (const other of others) {
        expect(other.from_keyword).toBe(false);
        expect(other.score, other.snippet).toBeLessThan(0.2);
      }
      // Scores still fall with the ranking, so min_score keeps a prefix.
      const scores = page.items.map((r) => r.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      const above = await stack.services.search.search(ref, {
        q: 'plumber bathroom sink trap',
        limit: 10,
        minScore: 0.5,
      });
      expect(above.items.map((r) => r.snippet)).toEqual([notes[0]]);
    });
  });

  it("scores a result holding the query's words in its title as one holding them in its text, also after a PATCH", async () => {
    await withNotes(new HashingEmbedder(), async (stack) => {
      const manual = await stack.services.capture.capture(ref, {
        text: 'Body text about sprockets only.',
        title: 'Gizmoflux manual',
      });
      await stack.settled();
      const best = async (q: string) => (await stack.services.search.search(ref, { q, limit: 3 })).items[0]!;
      expect(await best('gizmoflux manual')).toMatchObject({ id: manual.id, from_keyword: true });
      expect((await best('gizmoflux manual')).score).toBeGreaterThan(0.8);
      await stack.services.documents.update(ref, manual.id!, { title: 'Widgetron handbook' });
      expect(await best('widgetron handbook')).toMatchObject({ id: manual.id, from_keyword: true });
      expect((await best('widgetron handbook')).score).toBeGreaterThan(0.8);
    });
  });

  it("min_score keeps only results at or above it, the ranking's order unchanged; an unrelated query's results all go", async () => {
    const [all, nonsense] = await scoresWith(new HashingEmbedder(), ['plumber bathroom sink trap', 'zzqqxxjj']);
    expect(all!.length).toBe(3);
    expect(nonsense!.length).toBeGreaterThan(0); // without min_score, nonsense still gets its (low) results
    const [above] = await scoresWith(new HashingEmbedder(), ['plumber bathroom sink trap'], 0.5);
    expect(above!.length).toBeGreaterThan(0);
    expect(above!.length).toBeLessThan(all!.length);
    expect(above).toEqual(all!.filter((s) => s >= 0.5));
    const [dropped] = await scoresWith(new HashingEmbedder(), ['zzqqxxjj'], 0.2);
    expect(dropped).toEqual([]);
  });
});
