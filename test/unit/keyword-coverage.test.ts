import { describe, expect, it } from 'vitest';
import { coverageOf, termWeight } from '../../lambdas/core/keyword-coverage.js';
import type { PassageHit } from '../../lambdas/core/model.js';
import { DEFAULT_FUSION, fuse, keywordEvidence, keywordShare } from '../../lambdas/core/ranking.js';

const hit = (itemId: string, rawScore: number, coverage?: number): PassageHit => ({
  itemId,
  kind: 'file_excerpt',
  title: null,
  sourceRef: null,
  contentDate: '2026-01-01T00:00:00.000000',
  passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text: itemId },
  rawScore,
  ...(coverage === undefined ? {} : { coverage }),
});

describe('termWeight', () => {
  it('weighs a rare term more than a common one, and stays positive for a term every item holds', () => {
    expect(termWeight(100, 1)).toBeGreaterThan(termWeight(100, 10));
    expect(termWeight(100, 10)).toBeGreaterThan(termWeight(100, 90));
    expect(termWeight(100, 100)).toBeGreaterThan(0);
    expect(termWeight(100, 0)).toBeGreaterThan(termWeight(100, 1));
  });
});

describe('coverageOf', () => {
  // 10 notes: "up" is in 6 of them, "rent" in one, "went" in none (each term: how many hold it, and which of those asked about).
  const holders = (items: number[]) => ({ holding: items.length, items: new Set(items) });
  const up = holders([1, 2, 3, 4, 5, 6]);
  const rent = holders([7]);
  const went = holders([]);

  it('gives a hit on one common word a small share of the query, and one on the rare word a large one', () => {
    const coverage = coverageOf(10, [rent, went, up]);
    expect(coverage(1)).toBeGreaterThan(0);
    expect(coverage(1)).toBeLessThan(0.2);
    expect(coverage(7)).toBeGreaterThan(3 * coverage(1));
    expect(coverage(8)).toBe(0);
  });

  it('is 1 for an item holding every term and counts words no item holds in the total', () => {
    expect(coverageOf(10, [rent])(7)).toBeCloseTo(1, 10);
    expect(coverageOf(10, [rent, went])(7)).toBeLessThan(0.6);
  });

  it('weighs a term by how many of the library hold it, not by how many of the items asked about do', () => {
    // "up" held by 6 of 10 notes, only note 1 of them asked about: as common as above.
    const asked = coverageOf(10, [rent, went, { holding: 6, items: new Set([1]) }]);
    expect(asked(1)).toBeCloseTo(coverageOf(10, [rent, went, up])(1), 10);
  });

  it('is 0 for a query without terms', () => {
    expect(coverageOf(10, [])(1)).toBe(0);
  });
});

describe('convex fusion with keyword coverage', () => {
  it('lets the meaning leg lead when the only keyword hit holds little of the query', () => {
    const keyword = [hit('common-word', 3.2, 0.15)];
    const vector = [hit('paraphrase', 0.55), hit('other', 0.3), hit('common-word', 0.2)];
    const fused = fuse(keyword, vector);
    expect(fused[0]!.itemId).toBe('paraphrase');
    const weak = fused.find((f) => f.itemId === 'common-word')!;
    expect(weak.fromKeyword).toBe(true);
    expect(weak.score).toBeLessThan(0.5);
  });

  it('keeps the keyword leg ahead when its hit holds the whole query', () => {
    const keyword = [hit('exact', 9, 1), hit('partial', 4, 0.5)];
    const vector = [hit('paraphrase', 0.6), hit('other', 0.3), hit('exact', 0.25)];
    const fused = fuse(keyword, vector);
    expect(fused[0]!.itemId).toBe('exact');
    expect(fused[0]!.score).toBeGreaterThan(0.8);
  });

  it('keeps BM25 over the best as the keyword score: 0 stays "not found"', () => {
    expect(keywordEvidence([hit('a', 10, 1), hit('b', 5, 0.25)])).toEqual([1, 0.5]);
  });

  it("slides the keyword leg's share from weakKeyword to keyword with the best coverage, full from fullCoverage up", () => {
    const full = DEFAULT_FUSION.keyword / (DEFAULT_FUSION.keyword + DEFAULT_FUSION.vector);
    const weak = DEFAULT_FUSION.weakKeyword!;
    const at = (coverage: number) => keywordShare([hit('a', 1, coverage)], DEFAULT_FUSION);
    expect(at(0)).toBeCloseTo(weak, 10);
    expect(at(DEFAULT_FUSION.fullCoverage!)).toBeCloseTo(full, 10);
    expect(at(1)).toBeCloseTo(full, 10);
    expect(at(0.1)).toBeLessThan(at(0.2));
    expect(at(0.2)).toBeLessThan(at(0.3));
    // The best hit decides; an index that cannot tell coverage keeps the full share.
    expect(keywordShare([hit('a', 1, 0.05), hit('b', 1, 0.9)], DEFAULT_FUSION)).toBeCloseTo(full, 10);
    expect(keywordShare([hit('a', 1)], DEFAULT_FUSION)).toBeCloseTo(full, 10);
    expect(keywordShare([], DEFAULT_FUSION)).toBe(0);
  });
});
