/**
 * bench:filters: search, grep and the document list with metadata filters at
 * 100,000 documents (one passage each), against the same calls unfiltered.
 *
 * One SQLite file in a temp folder holds the real local adapters
 * (SqliteDocumentStore + SqliteSearchIndex), and every figure is a call of
 * the real services: SearchService.search, GrepService.grep and
 * DocumentService.list. Every document has its record in the document store
 * (with its metadata) and the library is touched, as a capture leaves them.
 *
 * - Texts: SciFact abstracts and 1-3 sentence slices of them (each text once;
 *   the abstract's title as the title), cycled over the abstracts.
 * - Metadata of document i, from a hash of i: project p00..p99 (one value = 1%),
 *   team a|b (50%), priority 0..9 (a number), due (an ISO date in 2026).
 * - Vectors: no real model on 100k passages (hours on 2 cores). A deterministic
 *   embedder stands in for passages and queries alike: a random projection of
 *   the text's TF-IDF bag of words (each word a seeded +-1 vector of 256
 *   dimensions, weighted (1 + log tf) x idf over the SciFact corpus). Dense,
 *   so the index's 1-bit codes behave as they do on a real encoder's vectors,
 *   and close for texts sharing rare words, so the meaning leg means something.
 * - Search: SciFact test queries, each run unfiltered and with each filter,
 *   the cases interleaved (the order rotating per query) so a load change on
 *   this shared machine hits every case alike; a filtered p50 is set against
 *   the unfiltered p50 of the same queries. Parts (keyword leg, vector leg,
 *   the filter's passage set) timed after, the same way. A case that spends
 *   more than --budget seconds in a phase stops there (after at least 3
 *   queries): the output says how many it ran.
 * - Exact filtered top 10, computed apart from the index's filter code: the
 *   unfiltered keyword leg over every match (FTS5 ranks them all: exact),
 *   filtered afterwards with matchesFilter, fused, with SearchService's own
 *   fusion and candidates per leg, with a brute-force cosine over every
 *   passage vector whose metadata matches the filter (an in-memory copy).
 *   SearchService scales every score of a query by one factor
 *   (relevance-score.ts), so its top-10 order is the fusion's. recall@10 =
 *   shared item ids / 10. Each leg's own top 10 is compared with its exact
 *   one too.
 * - Grep and the document list: the 1% filter (and others beside it), p50 over
 *   repeated calls; each walked to its end once, every match checked once.
 *
 *   SCIFACT_DIR=... npm run bench:filters [-- --docs 100000 --queries 200 --runs 100 --budget 60 --dimensions 256]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../lambdas/adapters/local/database.js';
import { FolderBlobStore } from '../lambdas/adapters/local/folder-blob-store.js';
import { SqliteDocumentStore } from '../lambdas/adapters/local/sqlite-document-store.js';
import { SqliteSearchIndex } from '../lambdas/adapters/local/sqlite-search-index.js';
import { passagesMatching } from '../lambdas/adapters/local/sqlite-vector-leg.js';
import { DocumentService } from '../lambdas/core/documents.js';
import { type Filter, matchesFilter, parseFilter } from '../lambdas/core/filter.js';
import { itemSubject } from '../lambdas/core/filter-subject.js';
import { GrepService } from '../lambdas/core/grep.js';
import type { Metadata } from '../lambdas/core/metadata.js';
import type { DocumentRecord, IndexItem, LibraryRef, PassageHit } from '../lambdas/core/model.js';
import type { Embedder, Embedding } from '../lambdas/core/ports.js';
import { fuse } from '../lambdas/core/ranking.js';
import { DEFAULT_SEARCH, SearchService } from '../lambdas/core/search.js';
import { benchArgs } from './lib/args.js';
import { machineLine } from './lib/machine.js';
import { mean, percentile } from './lib/metrics.js';
import { loadCorpus, loadScifact } from './lib/scifact.js';

const args = benchArgs('bench:filters', {
  options: {
    docs: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    runs: { type: 'string', default: '100' },
    dimensions: { type: 'string', default: '256' },
    budget: { type: 'string', default: '60' },
  },
});
const DOCS = Number(args.docs);
const QUERIES = Number(args.queries);
const RUNS = Number(args.runs);
const DIMENSIONS = Number(args.dimensions);
const BATCH = 1_000;
/** A case slower than this (seconds of wall time in one phase) stops after MIN_QUERIES calls: the figures say how many ran. */
const BUDGET_MS = Number(args.budget) * 1000;
const MIN_QUERIES = 3;
const CANDIDATES = DEFAULT_SEARCH.candidatesPerLeg;

const ref: LibraryRef = { tenantId: 'bench', endUserId: null };
/** The service's UTC form, one second apart: document i is the i-th newest from the end. */
const stamp = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().replace('Z', '000');

// ---- texts

const corpus = loadCorpus();
const queries = loadScifact('test')
  .queries.map((q) => q.text)
  .slice(0, QUERIES);

const sentencesOf = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z0-9([])/);

/** Each abstract's texts: the whole abstract, then its 2-, 1- and 3-sentence windows. */
function windowsOf(text: string): string[] {
  const s = sentencesOf(text);
  const out = [s.join(' ')];
  for (const width of [2, 1, 3])
    for (let at = 0; at + width <= s.length; at++) if (width < s.length) out.push(s.slice(at, at + width).join(' '));
  return out;
}

/** DOCS distinct texts, round-robin over the abstracts (no two documents tie on both legs by being the same text). */
function documentTexts(): Array<{ text: string; title: string }> {
  const lists = corpus.map((doc) => ({ title: doc.title, windows: doc.text ? windowsOf(doc.text) : [] }));
  const seen = new Set<string>();
  const out: Array<{ text: string; title: string }> = [];
  for (let round = 0; out.length < DOCS; round++) {
    let any = false;
    for (const { title, windows } of lists) {
      const text = windows[round];
      if (text === undefined) continue;
      any = true;
      if (text.length < 40 || seen.has(text)) continue;
      seen.add(text);
      out.push({ text, title });
      if (out.length === DOCS) break;
    }
    if (!any) throw new Error(`SciFact holds only ${out.length} distinct texts; ask for fewer --docs`);
  }
  return out;
}

// ---- metadata

/** An integer hash (lowbias32): metadata independent of the text's order. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}
function metadataOf(i: number): Metadata {
  const day = new Date(Date.UTC(2026, 0, 1) + (mix(4 * i + 4) % 365) * 86_400_000).toISOString().slice(0, 10);
  return {
    project: `p${String(mix(4 * i + 1) % 100).padStart(2, '0')}`,
    team: mix(4 * i + 2) % 2 ? 'b' : 'a',
    priority: mix(4 * i + 3) % 10,
    due: day,
  };
}

// ---- the stand-in embedder

const WORDS = /[\p{L}\p{N}]+/gu;
const tokens = (text: string) => text.toLowerCase().match(WORDS) ?? [];

/** A random projection of a TF-IDF bag of words: deterministic, dense, unit length. */
class ProjectionEmbedder implements Embedder {
  readonly name = 'bench-projection';
  private readonly idf = new Map<string, number>();
  private readonly maxIdf: number;
  private readonly signs = new Map<string, Int8Array>();

  constructor(
    readonly dimensions: number,
    texts: readonly string[],
  ) {
    const df = new Map<string, number>();
    for (const text of texts) for (const word of new Set(tokens(text))) df.set(word, (df.get(word) ?? 0) + 1);
    for (const [word, n] of df) this.idf.set(word, Math.log((texts.length + 1) / (n + 1)));
    this.maxIdf = Math.log(texts.length + 1);
  }

  /** A word's +-1 vector, from a PRNG seeded by the word's FNV-1a hash. */
  private signsOf(word: string): Int8Array {
    let v = this.signs.get(word);
    if (v) return v;
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
    v = new Int8Array(this.dimensions);
    for (let j = 0; j < this.dimensions; j++) v[j] = mix(h + j * 0x9e3779b9) & 1 ? 1 : -1;
    this.signs.set(word, v);
    return v;
  }

  vector(text: string): Float32Array {
    const tf = new Map<string, number>();
    for (const word of tokens(text)) tf.set(word, (tf.get(word) ?? 0) + 1);
    const sum = new Float64Array(this.dimensions);
    for (const [word, n] of tf) {
      const weight = (1 + Math.log(n)) * (this.idf.get(word) ?? this.maxIdf);
      if (weight <= 0) continue;
      const s = this.signsOf(word);
      for (let j = 0; j < this.dimensions; j++) sum[j]! += weight * s[j]!;
    }
    let norm = 0;
    for (let j = 0; j < this.dimensions; j++) norm += sum[j]! * sum[j]!;
    norm = Math.sqrt(norm) || 1;
    const out = new Float32Array(this.dimensions);
    for (let j = 0; j < this.dimensions; j++) out[j] = sum[j]! / norm;
    return out;
  }

  async embed(texts: readonly string[]): Promise<Embedding> {
    return { vectors: texts.map((t) => this.vector(t)), tokens: texts.reduce((n, t) => n + tokens(t).length, 0) };
  }
}

// ---- timing

/** Wall and CPU time of each call by its number; `spent` is the wall time so far (the budget of a slow case). */
class CaseTimes {
  readonly wall = new Map<number, number>();
  readonly cpu = new Map<number, number>();
  spent = 0;

  /** Still measuring: under MIN_QUERIES calls, or within the budget. */
  open(): boolean {
    return this.wall.size < MIN_QUERIES || this.spent < BUDGET_MS;
  }

  async time<T>(at: number, run: () => Promise<T>): Promise<T> {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await run();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    this.wall.set(at, wall);
    this.cpu.set(at, (c.user + c.system) / 1000);
    this.spent += wall;
    return result;
  }

  /** A percentile of the wall times (of the given call numbers only, when given). */
  p(q: number, only?: readonly number[]): number {
    return percentile(
      only ? only.flatMap((at) => (this.wall.has(at) ? [this.wall.get(at)!] : [])) : [...this.wall.values()],
      q,
    );
  }

  format(): string {
    return `p50 ${this.p(50).toFixed(1)} ms, p95 ${this.p(95).toFixed(1)} ms (CPU p50 ${percentile([...this.cpu.values()], 50).toFixed(1)} ms)`;
  }

  /** A note when the budget stopped the case before every input. */
  stopped(inputs: number): string {
    return this.wall.size < inputs
      ? ` [budget: ${this.wall.size} of ${inputs} measured, ${(this.spent / 1000).toFixed(0)} s]`
      : '';
  }
}
const pad = (s: string, n: number) => s.padEnd(n);

/** Runs every case once per input number, the order rotating per input, so a change of load hits every case alike. */
async function interleaved<C>(cases: readonly C[], inputs: number, run: (c: C, at: number) => Promise<void>) {
  for (let at = 0; at < inputs; at++) {
    for (let k = 0; k < cases.length; k++) await run(cases[(at + k) % cases.length]!, at);
  }
}

// ---- main

console.log(`bench:filters on ${new Date().toISOString()}`);
console.log(machineLine());

const texts = documentTexts();
const t0Embed = performance.now();
const embedder = new ProjectionEmbedder(
  DIMENSIONS,
  corpus.map((d) => `${d.title} ${d.text}`),
);
const vectors = new Float32Array(DOCS * DIMENSIONS);
texts.forEach(({ text }, i) => vectors.set(embedder.vector(text), i * DIMENSIONS));
const embedSeconds = (performance.now() - t0Embed) / 1000;

const itemId = (i: number) => `file_bench${String(i).padStart(8, '0')}`;
const indexOf = (id: string) => Number(id.slice('file_bench'.length));
const itemOf = (i: number): IndexItem => ({
  itemId: itemId(i),
  kind: 'file_excerpt',
  title: texts[i]!.title,
  sourceRef: null,
  contentDate: stamp(i),
  text: texts[i]!.text,
  passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text: texts[i]!.text }],
  vectors: [vectors.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS)],
  metadata: metadataOf(i),
  documentKind: 'text',
  contentType: 'text/plain',
});
const recordOf = (i: number): DocumentRecord => ({
  id: itemId(i),
  tenantId: ref.tenantId,
  endUserId: ref.endUserId,
  title: texts[i]!.title,
  filename: null,
  contentType: 'text/plain',
  sourceRef: null,
  sizeBytes: Buffer.byteLength(texts[i]!.text),
  sha256: createHash('sha256').update(texts[i]!.text).digest('hex'),
  kind: 'text',
  status: 'ready',
  createdAt: stamp(i),
  storage: 'service',
  lineCount: 1,
  pageCount: null,
  blobKey: null,
  passageCount: 1,
  passagesEmbedded: 1,
  failureReason: null,
  metadata: metadataOf(i),
});
/** What a filter reads of each item, as the index has it (core/filter-subject.ts): the exact side's copy. */
const subjects = Array.from({ length: DOCS }, (_, i) => itemSubject(itemOf(i)));

const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-filters-'));
const db = openDatabase(join(dataDir, 'library.db'));
const documents = new SqliteDocumentStore(db);
const index = new SqliteSearchIndex(db, DIMENSIONS, embedder.name);
const search = new SearchService({ index, embedder, documents });
const grep = new GrepService({ index, documents });
const documentService = new DocumentService({ documents, index, blobs: new FolderBlobStore(join(dataDir, 'blobs')) });

try {
  // Fill: each document's record (claim) and its index entry (put), 1,000 to a transaction
  // (each call's own transaction nests as a savepoint), as the adapters write them.
  const generation = await documents.touchLibrary(ref, stamp(0));
  const t0Fill = performance.now();
  for (let start = 0; start < DOCS; start += BATCH) {
    const pending: Array<Promise<unknown>> = [];
    db.transaction(() => {
      for (let i = start; i < Math.min(DOCS, start + BATCH); i++) {
        pending.push(
          documents.claim(recordOf(i)).then((r) => {
            if (!r.claimed) throw new Error(`document ${i} not claimed (same sha256 as ${r.existing.id})`);
          }),
        );
        pending.push(index.put(ref, itemOf(i), generation));
      }
    })();
    await Promise.all(pending);
  }
  const fillSeconds = (performance.now() - t0Fill) / 1000;
  const t0Load = performance.now();
  await index.vectorSearch(ref, { vector: embedder.vector('warm'), limit: 1, generation }); // loads the library's vectors into memory
  const loadSeconds = (performance.now() - t0Load) / 1000;
  console.log(
    `${DOCS} documents of one passage each (${texts.length} distinct SciFact texts, mean ${Math.round(mean(texts.map((t) => t.text.length)))} characters; ` +
      `${DIMENSIONS}-dimension stand-in vectors made in ${embedSeconds.toFixed(1)} s): filled in ${fillSeconds.toFixed(1)} s ` +
      `(${((fillSeconds * 1e6) / DOCS).toFixed(0)} us a document: record + index entry), vectors loaded in ${loadSeconds.toFixed(1)} s`,
  );

  // ---- the cases

  interface Case {
    name: string;
    json?: unknown;
    filter?: Filter;
    /** Documents matching, by matchesFilter over the in-memory copy (numbers, and a flag per document). */
    matching: Int32Array;
    allowed: Uint8Array;
  }
  const caseOf = (name: string, json?: unknown): Case => {
    const filter = json === undefined ? undefined : parseFilter(json);
    const matching: number[] = [];
    const allowed = new Uint8Array(DOCS);
    for (let i = 0; i < DOCS; i++) {
      if (filter && !matchesFilter(subjects[i]!, filter)) continue;
      matching.push(i);
      allowed[i] = 1;
    }
    return { name, json, filter, matching: Int32Array.from(matching), allowed };
  };
  const unfiltered = caseOf('unfiltered');
  const onePercent = caseOf('1%', { 'metadata.project': 'p42' });
  const half = caseOf('50%', { 'metadata.team': 'a' });
  const range = caseOf('range', { 'metadata.priority': { gte: 5 } });
  const dates = caseOf('dates', { 'metadata.due': { gte: '2026-03-01', lt: '2026-04-01' } });
  const both = caseOf('and', { 'metadata.project': 'p42', 'metadata.team': 'a' });
  const cases = [unfiltered, onePercent, half, range, dates, both];
  const label = (c: Case) => (c.json ? `${c.name} ${JSON.stringify(c.json)}` : c.name);
  console.log('\nfilters (share of the documents matching):');
  for (const c of cases)
    console.log(`  ${pad(label(c), 72)} ${c.matching.length} (${((100 * c.matching.length) / DOCS).toFixed(2)}%)`);

  // ---- search through SearchService

  for (const q of queries.slice(0, 3))
    for (const c of cases) await search.search(ref, { q, limit: 10, filter: c.filter });
  const searchTimes = new Map(cases.map((c) => [c, new CaseTimes()]));
  /** Each case's first page (item ids) by query number. */
  const served = new Map(cases.map((c) => [c, new Map<number, string[]>()]));
  await interleaved(cases, queries.length, async (c, qi) => {
    const t = searchTimes.get(c)!;
    if (!t.open()) return;
    const page = await t.time(qi, () => search.search(ref, { q: queries[qi]!, limit: 10, filter: c.filter }));
    served.get(c)!.set(
      qi,
      page.items.map((r) => r.id),
    );
  });
  // Answers must not be empty (an empty page costs nothing), and every result must match its filter.
  for (const c of cases) {
    const pages = [...served.get(c)!.values()];
    const empty = pages.filter((ids) => !ids.length).length;
    if (pages.slice(0, 3).some((ids) => !ids.length) || empty > pages.length / 10)
      throw new Error(`${label(c)}: ${empty} of ${pages.length} searches answered nothing`);
    const stray = pages.flat().filter((id) => !c.allowed[indexOf(id)]);
    if (stray.length) throw new Error(`${label(c)}: ${stray.length} results outside the filter, e.g. ${stray[0]}`);
  }
  const unfilteredTimes = searchTimes.get(unfiltered)!;
  /** A case's p50 over the unfiltered p50 of the same queries (a case stopped by the budget ran fewer). */
  const ratio = (c: Case) => {
    const t = searchTimes.get(c)!;
    return {
      ratio: t.p(50) / unfilteredTimes.p(50, [...t.wall.keys()]),
      p50: t.p(50),
      base: unfilteredTimes.p(50, [...t.wall.keys()]),
    };
  };
  console.log(`\nsearch (SearchService.search, limit 10) over ${queries.length} SciFact test queries, interleaved:`);
  for (const c of cases) {
    const t = searchTimes.get(c)!;
    const pages = [...served.get(c)!.values()];
    const r = ratio(c);
    console.log(
      `  ${pad(c.name, 10)} ${t.format()}; ${r.ratio.toFixed(2)}x unfiltered p50 over the same queries; ` +
        `results per page mean ${mean(pages.map((ids) => ids.length)).toFixed(1)}, ${pages.filter((ids) => !ids.length).length} empty${t.stopped(queries.length)}`,
    );
  }

  // ---- the parts, timed the same way

  const queryVectors = queries.map((q) => embedder.vector(q));
  // Diagnostics only: the vector leg's step that turns a filter into every passage it matches, timed alone.
  const libraryId = db
    .prepare('SELECT id FROM index_libraries WHERE tenant_id = ? AND end_user_id = ?')
    .pluck()
    .get(ref.tenantId, '') as number;
  const parts = new Map(
    cases.map((c) => [c, { keyword: new CaseTimes(), vector: new CaseTimes(), matching: new CaseTimes() }]),
  );
  /** Each leg's top 10 items by query number, for its recall against the exact leg. */
  const legTops = new Map(
    cases.map((c) => [c, { keyword: new Map<number, string[]>(), vector: new Map<number, string[]>() }]),
  );
  await interleaved(cases, queries.length, async (c, qi) => {
    const t = parts.get(c)!;
    if (!(t.keyword.wall.size < MIN_QUERIES || t.keyword.spent + t.vector.spent + t.matching.spent < BUDGET_MS)) return;
    const keyword = await t.keyword.time(qi, () =>
      index.keywordSearch(ref, { text: queries[qi]!, limit: CANDIDATES, generation, filter: c.filter }),
    );
    const vector = await t.vector.time(qi, () =>
      index.vectorSearch(ref, { vector: queryVectors[qi]!, limit: CANDIDATES, generation, filter: c.filter }),
    );
    if (c.filter) await t.matching.time(qi, async () => passagesMatching(db, libraryId, c.filter!));
    legTops.get(c)!.keyword.set(
      qi,
      keyword.slice(0, 10).map((h) => h.itemId),
    );
    legTops.get(c)!.vector.set(
      qi,
      vector.slice(0, 10).map((h) => h.itemId),
    );
  });
  console.log(
    `\nparts (the index port, ${CANDIDATES} candidates a leg; "passage set": the vector leg's passagesMatching alone, the filter's every passage, ` +
      `which the vector leg reads when its filter is not applied to a wider unfiltered top):`,
  );
  for (const c of cases) {
    const t = parts.get(c)!;
    console.log(
      `  ${pad(c.name, 10)} keyword leg p50 ${t.keyword.p(50).toFixed(1)} ms; vector leg p50 ${t.vector.p(50).toFixed(1)} ms` +
        (c.filter
          ? `; passage set ${t.matching.p(50).toFixed(1)} ms (${c.matching.length} passages: ${c.matching.length <= 8192 ? 'exact cosine' : 'the bit-code scan'} over it)`
          : '') +
        t.keyword.stopped(queries.length),
    );
  }

  // ---- exact filtered top 10

  const hitOf = (i: number, score: number): PassageHit => ({
    itemId: itemId(i),
    kind: 'file_excerpt',
    title: texts[i]!.title,
    sourceRef: null,
    contentDate: stamp(i),
    metadata: metadataOf(i),
    passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text: texts[i]!.text },
    rawScore: score,
  });
  /** Brute-force cosine over every matching passage: the best CANDIDATES, ties by insertion order (the index's rowid order). */
  function exactVector(v: Float32Array, matching: Int32Array): PassageHit[] {
    const top: Array<{ i: number; s: number }> = [];
    for (const i of matching) {
      let s = 0;
      const at = i * DIMENSIONS;
      for (let j = 0; j < DIMENSIONS; j++) s += vectors[at + j]! * v[j]!;
      if (top.length === CANDIDATES && s <= top[CANDIDATES - 1]!.s) continue;
      let k = top.length;
      while (k > 0 && top[k - 1]!.s < s) k--;
      top.splice(k, 0, { i, s });
      if (top.length > CANDIDATES) top.pop();
    }
    return top.map(({ i, s }) => hitOf(i, s));
  }
  const overlap = (got: readonly string[], want: readonly string[]) =>
    want.length ? got.filter((id) => want.includes(id)).length / Math.min(10, want.length) : got.length ? 0 : 1;
  const recall = new Map(
    cases.map((c) => [c, { recall: [] as number[], sameOrder: 0, keyword: [] as number[], vector: [] as number[] }]),
  );
  const everyMatch = new CaseTimes();
  for (const [qi, q] of queries.entries()) {
    // The exact keyword leg: the unfiltered leg over every match, filtered afterwards (FTS5 ranks every match: exact).
    const all = await everyMatch.time(qi, () => index.keywordSearch(ref, { text: q, limit: DOCS, generation }));
    for (const c of cases) {
      const got = served.get(c)!.get(qi);
      if (!got) continue;
      const keyword = all.filter((h) => c.allowed[indexOf(h.itemId)]).slice(0, CANDIDATES);
      const vector = exactVector(queryVectors[qi]!, c.matching);
      const exact = fuse(keyword, vector, DEFAULT_SEARCH.fusion)
        .slice(0, 10)
        .map((f) => f.itemId);
      const r = recall.get(c)!;
      r.recall.push(overlap(got, exact));
      if (exact.join() === got.join()) r.sameOrder += 1;
      const legs = legTops.get(c)!;
      if (legs.keyword.has(qi))
        r.keyword.push(
          overlap(
            legs.keyword.get(qi)!,
            keyword.slice(0, 10).map((h) => h.itemId),
          ),
        );
      if (legs.vector.has(qi))
        r.vector.push(
          overlap(
            legs.vector.get(qi)!,
            vector.slice(0, 10).map((h) => h.itemId),
          ),
        );
    }
  }
  console.log(
    `\nrecall@10 against an exact top 10 (the unfiltered keyword leg over every match, filtered afterwards, and a brute-force cosine over ` +
      `the matching passages, fused as SearchService fuses; the exact keyword leg took p50 ${everyMatch.p(50).toFixed(0)} ms a query):`,
  );
  for (const c of cases) {
    const r = recall.get(c)!;
    console.log(
      `  ${pad(c.name, 10)} mean ${mean(r.recall).toFixed(4)} over ${r.recall.length} queries, min ${Math.min(...r.recall).toFixed(1)}, same top 10 in the same order ${r.sameOrder}/${r.recall.length}; ` +
        `each leg alone against its exact top 10: keyword ${mean(r.keyword).toFixed(4)}, vector ${mean(r.vector).toFixed(4)}`,
    );
  }

  // ---- grep

  const listCases = [unfiltered, onePercent, half];
  const grepCases = [...listCases.map((c) => ({ c, pattern: 'cells' })), { c: onePercent, pattern: 'zebrafish' }];
  const grepName = (g: { c: Case; pattern: string }) => `${pad(g.c.name, 10)} "${g.pattern}"`;
  for (const g of grepCases)
    await grep.grep(ref, { pattern: g.pattern, caseSensitive: false, limit: 50, filter: g.c.filter });
  const grepTimes = new Map(grepCases.map((g) => [g, new CaseTimes()]));
  const grepCounts = new Map(grepCases.map((g) => [g, [] as number[]]));
  await interleaved(grepCases, RUNS, async (g, at) => {
    const page = await grepTimes
      .get(g)!
      .time(at, () => grep.grep(ref, { pattern: g.pattern, caseSensitive: false, limit: 50, filter: g.c.filter }));
    grepCounts.get(g)!.push(page.items.length);
  });
  console.log(`\ngrep (GrepService.grep, case-insensitive, first page of 50) x ${RUNS}, interleaved:`);
  for (const g of grepCases) {
    const expected = Array.from(g.c.matching).filter((i) => texts[i]!.text.toLowerCase().includes(g.pattern)).length;
    const counts = grepCounts.get(g)!;
    if (counts[0] !== Math.min(50, expected))
      throw new Error(
        `grep ${grepName(g)}: ${counts[0]} results on the first page, expected ${Math.min(50, expected)}`,
      );
    console.log(
      `  ${pad(grepName(g), 24)} ${grepTimes.get(g)!.format()}; ${counts[0]} results (${expected} documents hold it)`,
    );
  }
  {
    // Every page of the 1% grep, once: each matching document once, nothing else.
    const want = new Set(
      Array.from(onePercent.matching)
        .filter((i) => texts[i]!.text.toLowerCase().includes('cells'))
        .map(itemId),
    );
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    const t0 = performance.now();
    do {
      const page = await grep.grep(ref, {
        pattern: 'cells',
        caseSensitive: false,
        limit: 50,
        filter: onePercent.filter,
        cursor,
      });
      for (const r of page.items) {
        if (seen.has(r.file_id) || !want.has(r.file_id))
          throw new Error(`grep walk: ${r.file_id} ${seen.has(r.file_id) ? 'twice' : 'outside the filter'}`);
        seen.add(r.file_id);
      }
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    if (seen.size !== want.size) throw new Error(`grep walk: ${seen.size} of ${want.size} documents`);
    console.log(
      `  walked the 1% "cells" grep to its end: ${pages} pages, ${seen.size} documents, each once, in ${(performance.now() - t0).toFixed(0)} ms`,
    );
  }

  // ---- the document list

  for (const c of listCases) await documentService.list(ref, { limit: 20, filter: c.filter });
  const listTimes = new Map(listCases.map((c) => [c, new CaseTimes()]));
  const listCounts = new Map(listCases.map((c) => [c, [] as number[]]));
  await interleaved(listCases, RUNS, async (c, at) => {
    const page = await listTimes.get(c)!.time(at, () => documentService.list(ref, { limit: 20, filter: c.filter }));
    listCounts.get(c)!.push(page.items.length);
  });
  console.log(`\ndocument list (DocumentService.list, first page of 20) x ${RUNS}, interleaved:`);
  for (const c of listCases) {
    if (listCounts.get(c)![0] !== 20)
      throw new Error(`list ${c.name}: ${listCounts.get(c)![0]} documents on the first page`);
    console.log(`  ${pad(c.name, 10)} ${listTimes.get(c)!.format()}; ${listCounts.get(c)![0]} documents a page`);
  }
  {
    const want = new Set(Array.from(onePercent.matching, itemId));
    const seen = new Set<string>();
    const pageTimes = new CaseTimes();
    let cursor: string | undefined;
    let previous = '\uffff';
    do {
      const page = await pageTimes.time(pageTimes.wall.size, () =>
        documentService.list(ref, { limit: 20, filter: onePercent.filter, cursor }),
      );
      for (const d of page.items) {
        if (seen.has(d.id) || !want.has(d.id))
          throw new Error(`list walk: ${d.id} ${seen.has(d.id) ? 'twice' : 'outside the filter'}`);
        if (`${d.created_at}${d.id}` >= previous) throw new Error(`list walk: ${d.id} out of newest-first order`);
        previous = `${d.created_at}${d.id}`;
        seen.add(d.id);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    if (seen.size !== want.size) throw new Error(`list walk: ${seen.size} of ${want.size} documents`);
    console.log(
      `  walked the 1% list to its end: ${pageTimes.wall.size} pages, ${seen.size} documents, each once, newest first; ` +
        `page p50 ${pageTimes.p(50).toFixed(1)} ms, max ${pageTimes.p(100).toFixed(1)} ms`,
    );
  }

  // ---- goals

  const grepGoal = grepTimes.get(grepCases[1]!)!;
  const listGoal = listTimes.get(onePercent)!;
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  const goals: Array<{ goal: string; rows: Array<[string, string, string, string]> }> = [
    {
      goal: '100,000 passages with metadata (a key with 100 values, a key with 2 values, a number key, a date): filtered search p50 within 1.25x of unfiltered for a 1% filter and a 50% filter, and the filtered top 10 equal to an exact filtered top 10 (recall@10 >= 0.95).',
      rows: [
        ...[onePercent, half].map((c): [string, string, string, string] => {
          const r = ratio(c);
          const n = searchTimes.get(c)!.wall.size;
          const over = n < queries.length ? `; ${n} of ${queries.length} queries (budget)` : '';
          return [
            `search p50, ${c.name} filter / unfiltered`,
            `${r.ratio.toFixed(2)}x (${r.p50.toFixed(1)} / ${r.base.toFixed(1)} ms${over})`,
            '<= 1.25x',
            yes(r.ratio <= 1.25),
          ];
        }),
        [
          'recall@10 vs exact, 1% filter',
          mean(recall.get(onePercent)!.recall).toFixed(4),
          '>= 0.95',
          yes(mean(recall.get(onePercent)!.recall) >= 0.95),
        ],
        [
          'recall@10 vs exact, 50% filter',
          mean(recall.get(half)!.recall).toFixed(4),
          '>= 0.95',
          yes(mean(recall.get(half)!.recall) >= 0.95),
        ],
      ],
    },
    {
      goal: 'Filtered grep and document list p50 <= 20 ms at 100,000 documents for a 1% filter.',
      rows: [
        [
          'grep p50, 1% filter ("cells", page of 50)',
          `${grepGoal.p(50).toFixed(1)} ms`,
          '<= 20 ms',
          yes(grepGoal.p(50) <= 20),
        ],
        [
          'document list p50, 1% filter (page of 20)',
          `${listGoal.p(50).toFixed(1)} ms`,
          '<= 20 ms',
          yes(listGoal.p(50) <= 20),
        ],
      ],
    },
    {
      goal: '(The unfiltered figures do not move: print the unfiltered search p50 too.)',
      rows: [
        [
          'search p50, unfiltered',
          `${unfilteredTimes.p(50).toFixed(1)} ms (p95 ${unfilteredTimes.p(95).toFixed(1)} ms, CPU p50 ${percentile([...unfilteredTimes.cpu.values()], 50).toFixed(1)} ms)`,
          'printed',
          '-',
        ],
      ],
    },
  ];
  console.log(`\ngoals (${DOCS} documents, ${queries.length} queries, ${RUNS} grep and list runs):`);
  console.log('| goal | measure | value | target | met |');
  console.log('|---|---|---|---|---|');
  for (const { goal, rows } of goals)
    rows.forEach(([measure, value, target, met], i) =>
      console.log(`| ${i === 0 ? `"${goal}"` : ''} | ${measure} | ${value} | ${target} | ${met} |`),
    );
  const met = goals.flatMap((g) => g.rows).filter((r) => r[3] === 'yes').length;
  const total = goals.flatMap((g) => g.rows).filter((r) => r[3] !== '-').length;
  console.log(`summary: ${met}/${total} goals met`);
  console.log(`${machineLine()} (at the end)`);
} finally {
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
