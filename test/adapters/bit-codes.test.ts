import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitCodes, EVERY_KIND, SIMD_MIN_CODES } from '../../lambdas/adapters/local/bit-codes.js';

/** The Hamming distance bit by bit: the slowest way, and the plainest. */
function reference(codes: Uint32Array, words: number, slot: number, query: Uint32Array): number {
  let h = 0;
  for (let w = 0; w < words; w++)
    for (let bit = 0; bit < 32; bit++) h += ((codes[slot * words + w]! ^ query[w]!) >>> bit) & 1;
  return h;
}

/** What distances() must give: each allowed code's distance (the others past every one), and the histogram of the allowed. */
function expected(table: BitCodes, count: number, query: Uint32Array, allowed: number) {
  const past = table.wordsPerCode * 32 + 1; // one past a code's every bit
  const distance = new Uint16Array(count);
  const histogram = new Uint32Array(past + 1);
  for (let slot = 0; slot < count; slot++) {
    if ((allowed >>> table.kinds[slot]!) & 1) {
      distance[slot] = reference(table.codes, table.wordsPerCode, slot, query);
      histogram[distance[slot]!]! += 1;
    } else distance[slot] = past;
  }
  return { distance, histogram, past };
}

function fill(table: BitCodes, from: number, to: number, random: () => number) {
  for (let i = from * table.wordsPerCode; i < to * table.wordsPerCode; i++) table.codes[i] = (random() * 2 ** 32) >>> 0;
  for (let slot = from; slot < to; slot++) table.kinds[slot] = Math.floor(random() * 4);
}

describe('BitCodes: the Hamming distances of the bit-code scan', () => {
  it('gives every code its exact distance, and keeps the kinds not asked for out, in plain JavaScript and in SIMD alike', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(4, 8, 16, 48),
        // Below the threshold the codes stay in an array; at or above it they are scanned in WebAssembly.
        fc.constantFrom(1, 100, SIMD_MIN_CODES - 1, SIMD_MIN_CODES, SIMD_MIN_CODES + 37),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(EVERY_KIND, 0b0001, 0b0110, 0),
        (words, capacity, seed, allowed) => {
          let state = seed;
          const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
          const table = new BitCodes(words, capacity);
          const count = Math.max(1, capacity - (seed % 7));
          fill(table, 0, count, random);
          const query = Uint32Array.from({ length: words }, () => (random() * 2 ** 32) >>> 0);
          const got = table.distances(query, count, allowed);
          const want = expected(table, count, query, allowed);
          expect(Array.from(got.distance)).toEqual(Array.from(want.distance));
          expect(Array.from(got.histogram)).toEqual(Array.from(want.histogram));
          expect(got.past).toBe(want.past);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts a code as far as its every bit (the widest lanes) and a code equal to the query as 0', () => {
    const words = 400; // 12,800 bits: 100 chunks of 16 bytes, past the 31 an 8-bit lane could sum
    const table = new BitCodes(words, SIMD_MIN_CODES);
    table.codes.fill(0xffffffff, 0, words);
    const query = new Uint32Array(words);
    const { distance, histogram } = table.distances(query, 2);
    expect([distance[0], distance[1]]).toEqual([words * 32, 0]);
    expect(histogram[words * 32]).toBe(1);
    expect(histogram[0]).toBe(1);
  });

  it('keeps every code and kind as it grows from an array into WebAssembly memory and on within it', () => {
    let state = 11;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const table = new BitCodes(16, 16);
    let filled = 0;
    const copies: Uint32Array[] = [];
    const kinds: number[] = [];
    for (const capacity of [1_000, SIMD_MIN_CODES + 1, 20_000, 45_000]) {
      table.resize(capacity);
      fill(table, filled, capacity, random);
      for (let slot = filled; slot < capacity; slot++) {
        copies.push(table.codes.slice(slot * 16, slot * 16 + 16));
        kinds.push(table.kinds[slot]!);
      }
      filled = capacity;
      // A scan between two resizes leaves its scratch where the next codes will go: they must not be read as codes.
      table.distances(new Uint32Array(16), filled);
    }
    for (let slot = 0; slot < filled; slot += 97) {
      expect(Array.from(table.codes.subarray(slot * 16, slot * 16 + 16))).toEqual(Array.from(copies[slot]!));
      expect(table.kinds[slot]).toBe(kinds[slot]);
    }
    const query = copies[12_345]!;
    const { distance } = table.distances(query, filled);
    expect(distance[12_345]).toBe(0);
    expect(distance[7]).toBe(reference(table.codes, 16, 7, query));
  });
});
