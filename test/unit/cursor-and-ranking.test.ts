import { describe, expect, it } from 'vitest';
import {
  CURSOR_KEY_CHARS,
  decodeCursor,
  encodeCursor,
  isCursorKey,
  isNewestFirstKey,
  isOffset,
  NEWEST_FIRST_KEY_CHARS,
  offsetUpTo,
} from '../../lambdas/core/cursor.js';
import { DomainError } from '../../lambdas/core/errors.js';
import type { PassageHit } from '../../lambdas/core/model.js';
import { type FusedItem, fuse, sourcesFirst } from '../../lambdas/core/ranking.js';

const hit = (itemId: string, text = itemId): PassageHit => ({
  itemId,
  kind: 'file_excerpt',
  title: null,
  sourceRef: null,
  contentDate: '2026-01-01T00:00:00.000000',
  passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text },
  rawScore: 1,
});

describe('cursors', () => {
  it('round-trip within their scope and are refused elsewhere with invalid_request', () => {
    const cursor = encodeCursor('scope-a', 20);
    expect(decodeCursor(cursor, 'scope-a', isOffset)).toBe(20);
    expect(decodeCursor(undefined, 'scope-a', isOffset)).toBeUndefined();
    for (const [bad, scope] of [
      [cursor, 'scope-b'],
      ['garbage!!', 'scope-a'],
      [encodeCursor('scope-a', -1), 'scope-a'],
    ] as const) {
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

describe('cursor positions', () => {
  const refused = (position: unknown, isPosition: (v: unknown) => boolean) => {
    try {
      decodeCursor(encodeCursor('s', position), 's', isPosition as (v: unknown) => v is unknown);
    } catch (error) {
      return error instanceof DomainError && error.code === 'invalid_request' && /^cursor: /.test(error.message);
    }
    return false;
  };

  it('offsets: whole numbers from 0 to a safe bound only (JSON may carry -1, 0.5, 1e300 or 1e400 = Infinity)', () => {
    for (const bad of [-1, -0.5, 0.5, 1e300, 2 ** 53, '3', null, true, [1], { n: 1 }])
      expect(refused(bad, isOffset)).toBe(true);
    // 1e400 parses to Infinity.
    expect(() => decodeCursor(Buffer.from('{"s":"s","p":1e400}').toString('base64url'), 's', isOffset)).toThrow(
      /^cursor: /,
    );
    for (const good of [0, 1, 400]) expect(decodeCursor(encodeCursor('s', good), 's', isOffset)).toBe(good);
    expect(refused(401, offsetUpTo(400))).toBe(true);
    expect(decodeCursor(encodeCursor('s', 400), 's', offsetUpTo(400))).toBe(400);
  });

  it('keys: non-empty strings of at most CURSOR_KEY_CHARS (the longest id any list pages by), 64 for a date or id of a newest-first list', () => {
    expect(CURSOR_KEY_CHARS).toBe(256);
    for (const bad of ['', 'x'.repeat(CURSOR_KEY_CHARS + 1), 7, null]) expect(refused(bad, isCursorKey)).toBe(true);
    expect(decodeCursor(encodeCursor('s', 'é'.repeat(CURSOR_KEY_CHARS)), 's', isCursorKey)).toHaveLength(
      CURSOR_KEY_CHARS,
    );
    const key = { createdAt: '2026-01-01T00:00:00.000000', id: 'file_01J0000000000000000000000' };
    expect(decodeCursor(encodeCursor('s', key), 's', isNewestFirstKey)).toEqual(key);
    expect(
      decodeCursor(encodeCursor('s', { ...key, id: 'i'.repeat(NEWEST_FIRST_KEY_CHARS) }), 's', isNewestFirstKey),
    ).toBeTruthy();
    for (const bad of [
      { ...key, id: '' },
      { ...key, id: 'i'.repeat(NEWEST_FIRST_KEY_CHARS + 1) },
      { ...key, createdAt: 'x'.repeat(10_000) },
      { id: key.id },
      { ...key, createdAt: 1 },
    ]) {
      expect(refused(bad, isNewestFirstKey)).toBe(true);
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

describe('sourcesFirst', () => {
  const item = (itemId: string, kind: FusedItem['kind'], score: number): FusedItem => ({
    ...fuse([hit(itemId)], [])[0]!,
    kind,
    score,
  });

  it('puts a document before a past chat or creation that matched a little better', () => {
    const ranked = [item('question', 'chat', 1), item('table', 'creation', 0.97), item('note', 'file_excerpt', 0.95)];
    const first = sourcesFirst(ranked);
    expect(first.map((f) => f.itemId)).toEqual(['note', 'question', 'table']);
    expect(first[0]!.score).toBe(1); // the first result keeps the query's best score
    expect([...first].sort((x, y) => y.score - x.score)).toEqual(first);
  });

  it('keeps a chat first when no document comes near it, at its score', () => {
    const ranked = [item('question', 'chat', 0.9), item('note', 'file_excerpt', 0.3)];
    const first = sourcesFirst(ranked);
    expect(first.map((f) => [f.itemId, f.score])).toEqual([
      ['question', 0.9],
      ['note', expect.closeTo(0.375, 10)],
    ]);
  });

  it('leaves a ranking of documents alone', () => {
    const ranked = [item('a', 'file_excerpt', 0.9), item('b', 'image', 0.5)];
    expect(sourcesFirst(ranked)).toEqual(ranked);
  });
});
