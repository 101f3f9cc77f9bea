import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, isOffset } from '../../lambdas/core/cursor.js';
import { DomainError } from '../../lambdas/core/errors.js';
import type { PassageHit } from '../../lambdas/core/model.js';
import { fuse } from '../../lambdas/core/ranking.js';

const hit = (itemId: string, text = itemId): PassageHit => ({
  itemId, kind: 'file_excerpt', title: null, sourceRef: null, contentDate: '2026-01-01T00:00:00.000000',
  passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text }, rawScore: 1,
});

describe('cursors', () => {
  it('round-trip within their scope and are refused elsewhere with invalid_request', () => {
    const cursor = encodeCursor('scope-a', 20);
    expect(decodeCursor(cursor, 'scope-a', isOffset)).toBe(20);
    expect(decodeCursor(undefined, 'scope-a', isOffset)).toBeUndefined();
    for (const [bad, scope] of [[cursor, 'scope-b'], ['garbage!!', 'scope-a'], [encodeCursor('scope-a', -1), 'scope-a']] as const) {
      expect(() => decodeCursor(bad, scope, isOffset)).toThrow(DomainError);
      try {
        decodeCursor(bad, scope, isOffset);
      } catch (error) {
        expect((error as DomainError).code).toBe('invalid_request');
        expect((error as DomainError).message).toMatch(/^cursor: /);
      }
    }
  });
});

describe('fuse', () => {
  it('collapses passages to items, keeps scores in [0, 1] and sorted, and marks keyword finds', () => {
    const keyword = [hit('a', 'a best'), hit('a', 'a second'), hit('b')];
    const vector = [hit('c'), hit('a', 'a by meaning')];
    const fused = fuse(keyword, vector);
    expect(fused.map((f) => f.itemId).sort()).toEqual(['a', 'b', 'c']);
    expect(fused[0]!.itemId).toBe('a'); // found by both legs
    expect(fused[0]!.passageText).toBe('a best');
    for (const f of fused) expect(f.score).toBeGreaterThan(0), expect(f.score).toBeLessThanOrEqual(1);
    expect([...fused].sort((x, y) => y.score - x.score)).toEqual(fused);
    expect(fused.find((f) => f.itemId === 'c')!.fromKeyword).toBe(false);
    expect(fused.find((f) => f.itemId === 'b')!.fromKeyword).toBe(true);
  });

  it('gives 1 to an item ranked first by both legs', () => {
    expect(fuse([hit('x')], [hit('x')])[0]!.score).toBeCloseTo(1, 10);
  });
});
