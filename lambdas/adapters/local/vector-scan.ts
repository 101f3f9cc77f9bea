import type { ItemKind } from '../../core/model.js';
import { BitCodes, EVERY_KIND } from './bit-codes.js';

/**
 * An in-memory k-NN over one library's passage vectors: a Hamming scan of
 * 1-bit codes (the sign of each dimension) picks candidates, which are then
 * rescored by exact cosine on the float vectors. A large library's codes are
 * scanned with SIMD popcounts in WebAssembly (bit-codes.ts).
 *
 * Why not sqlite-vec's own k-NN: over 50k x 512 floats its exact search took
 * 70-150 ms here, its bit and int8 modes were no faster, and a JavaScript float
 * scan costs about as much. The bit scan reads 64 bytes a vector. On SciFact
 * USE vectors, rescoring the best 2% by Hamming distance kept 92% of the exact
 * top 50 and 4% kept 98% (bench/search.ts, docs/search-quality.md).
 * SQLite stays the store; this is a cache of it.
 */
export interface ScanHit {
  rowid: number;
  /** Cosine similarity (vectors are unit length). */
  score: number;
}

/** A filter matching at most this many vectors is scored exactly (every one) rather than through the bit codes. */
const EXACT_SCAN_MAX = 8_192;

/**
 * The most candidates rescored by exact cosine (past 250,000 vectors, 4% would be more). What the bit
 * codes mistake for the nearest lies just past them, and the vectors there are about as many in a large
 * library as in a mid-sized one (a larger library's nearest are nearer), so the count need not grow
 * with the library: at a million synthetic vectors 5,000 and 10,000 kept the exact top 10, as 2,000
 * kept 0.995 of it at 50,000 (docs/search-quality.md). It saves a fifth of the leg at a million.
 */
const RESCORED_MAX = 10_000;

const KIND_CODE: Record<ItemKind, number> = { file_excerpt: 0, image: 1, chat: 2, creation: 3 };

export class VectorScan {
  /** 32-bit words per code: the dimensions' bits, padded to 16 bytes for the SIMD scan. */
  private readonly words: number;
  /** Floats per vector, padded to a multiple of 4 for the unrolled dot product. */
  private readonly stride: number;
  private size = 0;
  private rowids: Float64Array;
  private readonly codeTable: BitCodes;
  private floats: Float32Array;
  private readonly slotOf = new Map<number, number>();

  /** `capacity`: the vectors it will hold at first (a library's count when loaded), so a small library takes little memory. */
  constructor(
    private readonly dimensions: number,
    capacity = 16,
  ) {
    this.words = Math.ceil(dimensions / 128) * 4;
    this.stride = Math.ceil(dimensions / 4) * 4;
    const slots = Math.max(1, capacity);
    this.rowids = new Float64Array(slots);
    this.codeTable = new BitCodes(this.words, slots);
    this.floats = new Float32Array(slots * this.stride);
  }

  get count(): number {
    return this.size;
  }

  /** The memory it holds: its arrays as allocated, and its rowid map (about 40 bytes an entry in V8). */
  get bytes(): number {
    return this.rowids.byteLength + this.codeTable.bytes + this.floats.byteLength + this.slotOf.size * 40;
  }

  add(rowid: number, kind: ItemKind, vector: Float32Array): void {
    if (this.slotOf.has(rowid)) this.remove(rowid);
    if (this.size === this.rowids.length) this.grow();
    const slot = this.size++;
    this.slotOf.set(rowid, slot);
    this.rowids[slot] = rowid;
    this.codeTable.kinds[slot] = KIND_CODE[kind];
    this.floats.fill(0, slot * this.stride, (slot + 1) * this.stride);
    this.floats.set(vector.subarray(0, this.dimensions), slot * this.stride);
    const base = slot * this.words;
    const codes = this.codeTable.codes;
    codes.fill(0, base, base + this.words);
    for (let j = 0; j < this.dimensions; j++) if (vector[j]! > 0) codes[base + (j >>> 5)]! |= 1 << (j & 31);
  }

  /** Swap-removes: the last slot moves into the freed one. */
  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined) return;
    this.slotOf.delete(rowid);
    const last = --this.size;
    if (slot !== last) {
      const moved = this.rowids[last]!;
      this.rowids[slot] = moved;
      this.codeTable.kinds[slot] = this.codeTable.kinds[last]!;
      this.codeTable.codes.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      this.floats.copyWithin(slot * this.stride, last * this.stride, (last + 1) * this.stride);
      this.slotOf.set(moved, slot);
    }
  }

  /**
   * The `limit` nearest vectors of the given kinds, among `only` (vector
   * rowids; a filter's matches) when given. A selective filter is scored
   * exactly, every match; a broad one goes through the bit-code scan with
   * the filter inside it, so it never returns fewer than exist.
   */
  search(query: Float32Array, limit: number, kinds?: readonly ItemKind[], only?: ReadonlySet<number>): ScanHit[] {
    // The kinds asked for, a bit each (KIND_CODE).
    const allowed = kinds?.length ? kinds.reduce((mask, k) => mask | (1 << KIND_CODE[k]), 0) : EVERY_KIND;
    if (only && only.size <= EXACT_SCAN_MAX) return this.exact(query, limit, allowed, only);
    const { dimensions: d, words, stride, floats } = this;
    const padded = new Float32Array(stride);
    padded.set(query.subarray(0, d));
    const queryCode = new Uint32Array(words);
    for (let j = 0; j < d; j++) if (query[j]! > 0) queryCode[j >>> 5]! |= 1 << (j & 31);

    // Hamming distance of every vector of the kinds asked for, and a histogram to find the cut-off; a
    // filter's matches are the only others left before it.
    const { distance, histogram, past } = this.codeTable.distances(queryCode, this.size, allowed);
    let eligible = allowed === EVERY_KIND ? this.size : histogram.reduce((sum, n) => sum + n, 0);
    if (only) eligible -= this.exclude(distance, histogram, past, only);
    const candidates = Math.min(eligible, Math.max(limit * 4, Math.min(Math.ceil(eligible / 25), RESCORED_MAX), 256));
    let cutoff = 0;
    for (let seen = 0; cutoff <= d && seen + histogram[cutoff]! < candidates; cutoff++) seen += histogram[cutoff]!;

    // Exact cosine for the candidates (all below the cut-off, and at it until full).
    const slots = new Int32Array(candidates);
    let taken = 0;
    let atCutoff = candidates - histogram.slice(0, cutoff).reduce((a, b) => a + b, 0);
    for (let slot = 0; slot < this.size && taken < candidates; slot++) {
      const h = distance[slot]!;
      if (h < cutoff || (h === cutoff && atCutoff-- > 0)) slots[taken++] = slot;
    }
    const scores = new Float64Array(taken);
    for (let i = 0; i < taken; i++) {
      const base = slots[i]! * stride;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let j = 0; j < stride; j += 4) {
        s0 += floats[base + j]! * padded[j]!;
        s1 += floats[base + j + 1]! * padded[j + 1]!;
        s2 += floats[base + j + 2]! * padded[j + 2]!;
        s3 += floats[base + j + 3]! * padded[j + 3]!;
      }
      scores[i] = s0 + s1 + s2 + s3;
    }
    return this.best(slots.subarray(0, taken), scores, limit);
  }

  /**
   * The `limit` best of the scored slots, best first (ties by rowid): only
   * those at or above the limit-th score are sorted, not every candidate.
   */
  private best(slots: Int32Array, scores: Float64Array, limit: number): ScanHit[] {
    const bar = scores.length > limit ? kthLargest(scores, limit) : Number.NEGATIVE_INFINITY;
    const hits: ScanHit[] = [];
    for (let i = 0; i < slots.length; i++)
      if (scores[i]! >= bar) hits.push({ rowid: this.rowids[slots[i]!]!, score: scores[i]! });
    return hits.sort((a, b) => b.score - a.score || a.rowid - b.rowid).slice(0, limit);
  }

  /**
   * Puts the vectors not among `only` past every cut-off (and out of the
   * histogram); how many it put there.
   */
  private exclude(distance: Uint16Array, histogram: Uint32Array, past: number, only: ReadonlySet<number>): number {
    const { rowids } = this;
    let excluded = 0;
    for (let slot = 0; slot < this.size; slot++) {
      if (distance[slot] !== past && !only.has(rowids[slot]!)) {
        histogram[distance[slot]!]! -= 1;
        distance[slot] = past;
        excluded += 1;
      }
    }
    return excluded;
  }

  /** Exact cosine of each of `only`'s vectors (of the allowed kinds): the nearest `limit`. */
  private exact(query: Float32Array, limit: number, allowed: number, only: ReadonlySet<number>): ScanHit[] {
    const hits: ScanHit[] = [];
    for (const rowid of only) {
      const slot = this.slotOf.get(rowid);
      if (slot === undefined || !((allowed >>> this.codeTable.kinds[slot]!) & 1)) continue;
      hits.push({ rowid, score: this.cosine(slot, query) });
    }
    return hits.sort((a, b) => b.score - a.score || a.rowid - b.rowid).slice(0, limit);
  }

  private cosine(slot: number, query: Float32Array): number {
    const { dimensions: d, floats, stride } = this;
    const base = slot * stride;
    let sum = 0;
    for (let j = 0; j < d; j++) sum += floats[base + j]! * query[j]!;
    return sum;
  }

  private grow() {
    // Half again, not double: a library that grows keeps less slack.
    const capacity = Math.max(16, Math.ceil(this.rowids.length * 1.5));
    const rowids = new Float64Array(capacity);
    rowids.set(this.rowids);
    const floats = new Float32Array(capacity * this.stride);
    floats.set(this.floats);
    this.rowids = rowids;
    this.codeTable.resize(capacity);
    this.floats = floats;
  }
}

/** The k-th largest of the values (1-based), by selection on a copy: linear on average. */
function kthLargest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1; // in descending order
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target]!;
}
