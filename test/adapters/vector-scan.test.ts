import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/lib/english.js';
import { VectorScan } from '../../lambdas/adapters/local/vector-scan.js';
import type { ItemKind } from '../../lambdas/core/model.js';

const DIMENSIONS = 64;

/** Seeded, so a failure can be replayed; centred on 0. */
function seeded(seed: number) {
  const next = rng(seed);
  return () => next() - 0.5;
}

function unit(random: () => number): Float32Array {
  const v = Float32Array.from({ length: DIMENSIONS }, random);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('VectorScan', () => {
  it('returns the nearest vectors best first, each with its exact cosine, when the bit codes keep them all', () => {
    const random = seeded(1);
    const vectors = Array.from({ length: 200 }, () => unit(random));
    const scan = new VectorScan(DIMENSIONS, vectors.length);
    vectors.forEach((v, i) => scan.add(i + 1, 'file_excerpt', v));
    // 200 vectors, at least 256 candidates: every vector is rescored, so the answer is the exact top 10.
    for (let probe = 0; probe < 20; probe++) {
      const query = unit(random);
      const exact = vectors
        .map((v, i) => ({ rowid: i + 1, score: dot(v, query) }))
        .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
        .slice(0, 10);
      const hits = scan.search(query, 10);
      expect(hits.map((h) => h.rowid)).toEqual(exact.map((e) => e.rowid));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(exact[i]!.score, 5));
    }
  });

  it('keeps the limit and orders equal scores by rowid when many candidates tie', () => {
    const random = seeded(2);
    const same = unit(random);
    const scan = new VectorScan(DIMENSIONS);
    // 400 identical vectors among 3,000 others: the 50 asked for are 50 of the tied ones, in rowid order.
    for (let i = 0; i < 3000; i++) scan.add(10_000 + i, 'file_excerpt', unit(random));
    for (let i = 0; i < 400; i++) scan.add(5000 - i, 'file_excerpt', same);
    const hits = scan.search(same, 50);
    expect(hits).toHaveLength(50);
    const rowids = hits.map((h) => h.rowid);
    expect(new Set(rowids).size).toBe(50);
    expect(rowids).toEqual([...rowids].sort((a, b) => a - b));
    for (const rowid of rowids) expect(rowid).toBeGreaterThan(4600);
    expect(rowids.every((rowid) => rowid <= 5000)).toBe(true);
    for (const h of hits) expect(h.score).toBeCloseTo(1, 5);
  });

  it('finds the true nearest among many vectors through the bit codes, and only of the kinds asked for', () => {
    const random = seeded(3);
    const kinds: ItemKind[] = ['file_excerpt', 'chat'];
    const vectors = Array.from({ length: 20_000 }, () => unit(random));
    const scan = new VectorScan(DIMENSIONS, vectors.length);
    vectors.forEach((v, i) => scan.add(i + 1, kinds[i % 2]!, v));
    let found = 0;
    const probes = 30;
    for (let probe = 0; probe < probes; probe++) {
      // A query near one stored vector: that vector is its nearest, and the scan must return it first.
      const target = Math.floor((random() + 0.5) * vectors.length);
      const query = unit(() => 0).map((_, j) => vectors[target]![j]! + 0.02 * random());
      const hits = scan.search(query, 10);
      if (hits[0]?.rowid === target + 1) found += 1;
      expect(hits).toHaveLength(10);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
      const chats = scan.search(query, 10, ['chat']);
      expect(chats).toHaveLength(10);
      for (const h of chats) expect((h.rowid - 1) % 2).toBe(1);
    }
    expect(found).toBe(probes);
  });

  it('searches every vector of a rare kind, and finds nothing for a kind no vector has', () => {
    const random = seeded(4);
    const vectors = Array.from({ length: 20_000 }, () => unit(random));
    // One vector in a hundred is a chat: fewer than the candidates rescored, so the answer is the exact top 10.
    const kindOf = (i: number): ItemKind => (i % 100 === 0 ? 'chat' : 'file_excerpt');
    const scan = new VectorScan(DIMENSIONS, vectors.length);
    vectors.forEach((v, i) => scan.add(i + 1, kindOf(i), v));
    for (let probe = 0; probe < 10; probe++) {
      const query = unit(random);
      const exact = vectors
        .map((v, i) => ({ rowid: i + 1, score: dot(v, query) }))
        .filter((_, i) => kindOf(i) === 'chat')
        .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
        .slice(0, 10);
      expect(scan.search(query, 10, ['chat']).map((h) => h.rowid)).toEqual(exact.map((h) => h.rowid));
    }
    expect(scan.search(unit(random), 10, ['image'])).toEqual([]);
  });
});
