import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lambdas/core/errors.js';
import { checkMetadata, mergeMetadata } from '../../lambdas/core/metadata.js';

/** The metadata rules (API.md, "Metadata") and PATCH's merge patch (RFC 7396). */
describe('metadata', () => {
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return (error as DomainError).message;
    }
    throw new Error('not refused');
  };

  it('takes strings, finite numbers, booleans and arrays of strings within the limits, as a copy', () => {
    const input = { a: 'x', b: 1.5, c: false, d: ['p', 'q'], e: [] as string[], _f: 'y', 'g.h-i': 0 };
    const checked = checkMetadata(input);
    expect(checked).toEqual(input);
    input.d.push('r');
    expect(checked.d).toEqual(['p', 'q']);
  });

  it('refuses what breaks a rule, naming the key', () => {
    expect(refused(() => checkMetadata({ '1a': 1 }))).toMatch(/^metadata\.1a: /);
    expect(refused(() => checkMetadata({ a: null }))).toMatch(/^metadata\.a: /);
    expect(refused(() => checkMetadata({ a: { b: 1 } }))).toMatch(/^metadata\.a: /);
    expect(refused(() => checkMetadata({ a: [1] }))).toMatch(/^metadata\.a\[0\]: /);
    expect(refused(() => checkMetadata({ a: 'x'.repeat(1025) }))).toMatch(/^metadata\.a: .*1024/);
    expect(refused(() => checkMetadata({ a: ['x'.repeat(257)] }))).toMatch(/^metadata\.a\[0\]: .*256/);
    // Characters, as every limit of the API counts them: 1,024 emoji fit (2,048 UTF-16 units); 1,025 do not.
    expect(checkMetadata({ a: '😀'.repeat(1024), b: ['😀'.repeat(256)] }).a).toBe('😀'.repeat(1024));
    expect(refused(() => checkMetadata({ a: '😀'.repeat(1025) }))).toMatch(/^metadata\.a: .*1024/);
    expect(refused(() => checkMetadata({ a: ['😀'.repeat(257)] }))).toMatch(/^metadata\.a\[0\]: .*256/);
    expect(refused(() => checkMetadata({ a: Array.from({ length: 65 }, () => 'x') }))).toMatch(/^metadata\.a: .*64/);
    expect(
      refused(() => checkMetadata(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 1])))),
    ).toMatch(/^metadata: at most 32 keys/);
    expect(
      refused(() =>
        checkMetadata({
          a: 'x'.repeat(1000),
          b: 'x'.repeat(1000),
          c: 'x'.repeat(1000),
          d: 'x'.repeat(1000),
          e: 'x'.repeat(1000),
          f: 'x'.repeat(1000),
          g: 'x'.repeat(1000),
          h: 'x'.repeat(1000),
          i: 'x'.repeat(1000),
        }),
      ),
    ).toMatch(/^metadata: serializes to \d+ bytes, over 8192/);
    expect(refused(() => checkMetadata([]))).toBe('metadata: expected an object');
  });

  it('merges a patch: a value sets, null removes, others stay; a key named __proto__ is a key', () => {
    const current = { a: 1, b: 'x', tags: ['t'] };
    expect(mergeMetadata(current, { a: 2, b: null, c: true })).toEqual({ a: 2, tags: ['t'], c: true });
    const withProto = mergeMetadata(current, JSON.parse('{"__proto__": "own"}'));
    expect(Object.hasOwn(withProto, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(withProto)).__proto__).toBe('own');
    const removed = mergeMetadata(withProto, JSON.parse('{"__proto__": null}'));
    expect(Object.hasOwn(removed, '__proto__')).toBe(false);
    expect(refused(() => mergeMetadata(current, { 'bad key': 1 }))).toMatch(/^metadata\.bad key: /);
    expect(refused(() => mergeMetadata(current, { a: { deep: 1 } }))).toMatch(/^metadata\.a: /);
  });
});
