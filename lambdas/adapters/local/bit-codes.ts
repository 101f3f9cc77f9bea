import { HAMMING_KERNEL_WASM } from './hamming-kernel.js';

/**
 * From this many codes a library's codes live in WebAssembly memory and are
 * scanned with SIMD popcounts (hamming-kernel.wat): 0.6 ms against 3.1 ms for
 * the JavaScript loop over 50,000 codes of 512 bits, 13 ms against 42 ms over
 * a million. Below it the loop costs well under a millisecond, and a small
 * library is spared a memory of its own (64 KiB at least, and its address
 * space reservation): a service with thousands of small libraries keeps them
 * in ordinary arrays.
 */
export const SIMD_MIN_CODES = 8_192;

/** What a scan of the codes gives: each code's distance to the query, and how many codes lie at each distance. */
export interface CodeDistances {
  /** One per code, in slot order; `past` for a code of a kind not asked for. */
  distance: Uint16Array;
  /** Indexed by distance, up to `past`; the codes of kinds not asked for are not counted. */
  histogram: Uint32Array;
  /** The distance given to a code left out: past every real one. */
  past: number;
}

let compiledKernel: WebAssembly.Module | undefined;
const kernel = () => {
  compiledKernel ??= new WebAssembly.Module(Buffer.from(HAMMING_KERNEL_WASM, 'base64'));
  return compiledKernel;
};

type DistancesKernel = (
  codes: number,
  count: number,
  chunks: number,
  query: number,
  distance: number,
  histogram: number,
  kinds: number,
  allowed: number,
  past: number,
) => void;

const PAGE = 65_536;
/** Every kind asked for: the mask of a search without a kind filter. */
export const EVERY_KIND = 0xff;

/**
 * The 1-bit codes of a library's vectors and the kind of each (a byte, below
 * 8), one after another by slot. A code is `wordsPerCode` 32-bit words, a
 * multiple of 4: 16 bytes is the SIMD kernel's step, and the padding bits
 * are zero in every code and in the query, so they add nothing to a distance.
 * `codes` and `kinds` are the current views: a resize may replace them.
 */
export class BitCodes {
  codes: Uint32Array;
  kinds: Uint8Array;
  /** Set once the codes live in WebAssembly memory (from SIMD_MIN_CODES). */
  private simd: { memory: WebAssembly.Memory; distances: DistancesKernel } | null = null;

  constructor(
    readonly wordsPerCode: number,
    capacity: number,
  ) {
    if (wordsPerCode % 4 !== 0) throw new Error('a code must be a whole number of 16-byte chunks');
    this.codes = new Uint32Array(0);
    this.kinds = new Uint8Array(0);
    this.resize(capacity);
  }

  /** The distance given to a code left out, one more than a code's bits (the largest real distance). */
  private get past(): number {
    return this.wordsPerCode * 32 + 1;
  }

  /** The codes there is room for (the views are sized to it). */
  private get capacity(): number {
    return this.kinds.length;
  }

  /** The memory the codes and kinds take, as allocated. */
  get bytes(): number {
    return this.simd ? this.simd.memory.buffer.byteLength : this.codes.byteLength + this.kinds.byteLength;
  }

  /** Room for `capacity` codes, the first ones kept. */
  resize(capacity: number): void {
    const kinds = this.kinds.slice(0, capacity);
    if (capacity < SIMD_MIN_CODES && !this.simd) {
      const codes = new Uint32Array(capacity * this.wordsPerCode);
      codes.set(this.codes.subarray(0, codes.length));
      this.codes = codes;
      this.kinds = new Uint8Array(capacity);
      this.kinds.set(kinds);
      return;
    }
    const at = this.layout(capacity);
    const needed = Math.ceil(at.end / PAGE);
    if (!this.simd) {
      const memory = new WebAssembly.Memory({ initial: needed });
      const instance = new WebAssembly.Instance(kernel(), { scan: { memory } });
      this.simd = { memory, distances: instance.exports.distances as DistancesKernel };
      new Uint32Array(memory.buffer).set(this.codes.subarray(0, capacity * this.wordsPerCode));
    } else {
      // Grown in place: the codes stay where they are; the kinds, after them, move.
      const pages = this.simd.memory.buffer.byteLength / PAGE;
      if (needed > pages) this.simd.memory.grow(needed - pages);
    }
    const { buffer } = this.simd.memory;
    this.codes = new Uint32Array(buffer, 0, capacity * this.wordsPerCode);
    this.kinds = new Uint8Array(buffer, at.kinds, capacity);
    this.kinds.set(kinds);
  }

  /**
   * The Hamming distance of each of the first `count` codes to `query` (a
   * code of the same words), for the codes whose kind is a set bit of
   * `allowed`. The arrays returned are valid until the next resize.
   */
  distances(query: Uint32Array, count: number, allowed = EVERY_KIND): CodeDistances {
    const { past } = this;
    if (!this.simd) return this.scriptDistances(query, count, allowed, past);
    const { memory, distances } = this.simd;
    const at = this.layout(this.capacity);
    new Uint32Array(memory.buffer, at.query, this.wordsPerCode).set(query);
    const histogram = new Uint32Array(memory.buffer, at.histogram, past + 1);
    histogram.fill(0);
    distances(0, count, this.wordsPerCode / 4, at.query, at.distance, at.histogram, at.kinds, allowed, past);
    return { distance: new Uint16Array(memory.buffer, at.distance, count), histogram, past };
  }

  /**
   * Where each region lies in WebAssembly memory, each on a 16-byte
   * boundary: the codes first (so growing keeps them in place), then the
   * kinds, the query, the histogram and the distances.
   */
  private layout(capacity: number) {
    const align = (bytes: number) => Math.ceil(bytes / 16) * 16;
    const kinds = capacity * this.wordsPerCode * 4;
    const query = kinds + align(capacity);
    const histogram = query + this.wordsPerCode * 4;
    const distance = histogram + align((this.past + 1) * 4);
    return { kinds, query, histogram, distance, end: distance + capacity * 2 };
  }

  /** The same distances in plain JavaScript, for codes in ordinary arrays. */
  private scriptDistances(query: Uint32Array, count: number, allowed: number, past: number): CodeDistances {
    const { wordsPerCode: words, codes, kinds } = this;
    const distance = new Uint16Array(count);
    const histogram = new Uint32Array(past + 1);
    for (let slot = 0, base = 0; slot < count; slot++, base += words) {
      if (!((allowed >>> kinds[slot]!) & 1)) {
        distance[slot] = past;
        continue;
      }
      let h = 0;
      for (let w = 0; w < words; w++) h += popcount(codes[base + w]! ^ query[w]!);
      distance[slot] = h;
      histogram[h]! += 1;
    }
    return { distance, histogram, past };
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
