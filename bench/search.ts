/**
 * bench:search: what a search and a grep cost as users wait for them, at
 * 50k, 200k and 1M passages (--huge adds 5M), every answer checked.
 *
 * The index is the real local one (SQLite FTS5 and the in-memory vector
 * scan, in a temp data folder), filled through the SearchIndex port (the
 * capture path's last step: chunking and embedding would take hours at 1M),
 * with the library's record made first, as a capture makes it: searches and
 * greps read the library's generation, and without a record they answer an
 * empty page at once. (Until this version the bench made no record, so its
 * "search" figures timed the query embedding alone and its grep figures no
 * grep: docs/benchmarks.md.) Texts are SciFact abstracts, cycled and chunked
 * as capture chunks them; vectors are synthetic but clustered like real
 * embeddings (each near one of 4,096 centres), so the bit-code scan meets
 * neighbourhoods as it does in use. Each query is a SciFact query embedded
 * for real by the local model and searched through SearchService: a figure
 * is embedding + both legs + fusion. The same queries are then sent as
 * GET /v1/search to a `library serve` in its own process on the same folder
 * (its tenant made first, `library keys create`): what a caller waits for,
 * routing, JSON and the server's own query embedding included (--no-http
 * skips it).
 *
 * Every measured answer is checked, and a run whose answers are wrong stops
 * with an error instead of printing a figure: every search must return
 * results; a document's own title must find it in the top 10 (known-item
 * probes); every grep must return exactly the lines a plain scan of the same
 * texts finds on its first page (or some, where the page stopped early).
 * Recall@10 of the vector leg is measured against an exact scan of every
 * stored vector, and the keyword leg's top 10 against BM25 over every query
 * term (a large library ranks without its common terms: sqlite-keyword-leg.ts).
 *
 *   npm run bench:search [-- --queries 300 --sizes 50000,200000,1000000 --huge --grep-docs 20000 --no-http]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSearchIndex } from '../lambdas/adapters/local/sqlite-search-index.js';
import { SqliteSearchLegs } from '../lambdas/adapters/local/sqlite-search-legs.js';
import { chunkText } from '../lambdas/core/chunking.js';
import type { IndexItem, LibraryRef } from '../lambdas/core/model.js';
import type { Embedder } from '../lambdas/core/ports.js';
import { type LocalStack, openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { benchArgs } from './lib/args.js';
import { rng } from './lib/english.js';
import { createTenantKey, Http, killAllServers, type LocalServer, newTally, startServer } from './lib/local-server.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';
import { documentText, loadCorpus, loadScifact } from './lib/scifact.js';

const args = benchArgs('bench:search', {
  options: {
    queries: { type: 'string', default: '300' },
    sizes: { type: 'string', default: '50000,200000,1000000' },
    huge: { type: 'boolean', default: false },
    'grep-docs': { type: 'string', default: '20000' },
    // Also search over HTTP: `library serve` in its own process on the same folder (--no-http: in process only).
    http: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const sizes = [...args.sizes.split(',').map(Number), ...(args.huge ? [5_000_000] : [])];
const queryCount = Number(args.queries);
const grepDocs = Number(args['grep-docs']);

const corpus = loadCorpus();
const queries = loadScifact('test')
  .queries.map((q) => q.text)
  .slice(0, queryCount);
const benchRef: LibraryRef = { tenantId: 'bench', endUserId: null };
const stamp = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().replace('Z', '000');

/** Seeded (english.ts's mulberry32), so every run indexes the same vectors; centred on 0. */
const seeded = rng(42);
const next = () => seeded() - 0.5;
function unitVector(dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) v[i] = next();
  return normalize(v);
}
function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return v.map((x) => x / norm);
}

/** Real embeddings cluster: each synthetic vector lies near one of these centres (cosine about 0.6 to it). */
const CENTRES = 4096;
let centres: Float32Array[] = [];
function clusteredVector(dimensions: number, centre = Math.floor((next() + 0.5) * CENTRES) % CENTRES): Float32Array {
  if (centres.length !== CENTRES || centres[0]!.length !== dimensions)
    centres = Array.from({ length: CENTRES }, () => unitVector(dimensions));
  const noise = unitVector(dimensions);
  const c = centres[centre]!;
  return normalize(c.map((x, i) => 0.6 * x + 0.8 * noise[i]!));
}

/** The i-th synthetic document: a SciFact abstract (cycled), all its passages, random vectors. */
function item(i: number, dimensions: number, passagesPerItem?: number): IndexItem {
  const doc = corpus[i % corpus.length]!;
  const text = documentText(doc);
  const passages = chunkText(text).slice(0, passagesPerItem);
  return {
    itemId: `file_bench${String(i).padStart(8, '0')}`,
    kind: 'file_excerpt',
    title: doc.title,
    sourceRef: null,
    contentDate: stamp(i),
    text,
    passages,
    vectors: passages.map(() => clusteredVector(dimensions)),
  };
}

const ms = (values: number[]) => {
  const cpu = cpuTimes.get(values);
  const wall = `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;
  return cpu ? `${wall} (CPU p50 ${percentile(cpu, 50).toFixed(1)} ms)` : wall;
};

/** CPU time of this process per call, beside the wall time: on a loaded machine it is what an idle core would take. */
const cpuTimes = new Map<number[], number[]>();

async function timeEach<T>(inputs: readonly T[], run: (input: T) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (const input of inputs) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run(input);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  cpuTimes.set(times, cpu);
  return times;
}

/** A measured answer that is not what the library holds: the run stops, since its figures would time the wrong thing. */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench:search: ${what}; no figure is printed from a wrong answer`);
}

/** Recall@10 of the vector leg against an exact scan of every stored vector, over `probes` query vectors. */
function vectorRecall(stack: LocalStack, probes: Float32Array[], found: number[][]): number {
  const best = probes.map(() => [] as Array<{ rowid: number; score: number }>);
  const rows = stack.db.prepare('SELECT rowid, embedding FROM passage_vectors').iterate() as IterableIterator<{
    rowid: number;
    embedding: Buffer;
  }>;
  for (const row of rows) {
    const v = new Float32Array(Uint8Array.from(row.embedding).buffer);
    probes.forEach((q, i) => {
      let dot = 0;
      for (let j = 0; j < v.length; j++) dot += v[j]! * q[j]!;
      const top = best[i]!;
      if (top.length < 10 || dot > top[top.length - 1]!.score) {
        top.push({ rowid: row.rowid, score: dot });
        top.sort((a, b) => b.score - a.score);
        if (top.length > 10) top.pop();
      }
    });
  }
  let kept = 0;
  best.forEach((top, i) => (kept += top.filter((hit) => found[i]!.includes(hit.rowid)).length));
  return kept / (probes.length * 10);
}

async function searchBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-search-'));
  // Over HTTP the server needs a tenant with a key: the library is that tenant's.
  const tenant = args.http ? await createTenantKey(dataDir, 'bench') : null;
  const ref: LibraryRef = tenant ? { tenantId: tenant.tenantId, endUserId: null } : benchRef;
  const stack = await openLocalStack({ dataDir });
  let server: LocalServer | null = null;
  const { index, embedder, documents } = stack.ports;
  // The library's record, as its first capture makes it: searches read its generation.
  await documents.touchLibrary(ref, stamp(0));
  let passages = 0;
  let items = 0;
  for (const target of sizes) {
    const t0 = performance.now();
    while (passages < target) {
      const next = item(items++, embedder.dimensions);
      await index.put(ref, next);
      passages += next.passages.length;
    }
    const fillSeconds = (performance.now() - t0) / 1000;
    // Warm up the model and the page cache, then measure.
    for (const q of queries.slice(0, 10)) await stack.services.search.search(ref, { q, limit: 10 });
    const pages: number[] = [];
    const total = await timeEach(queries, async (q) =>
      pages.push((await stack.services.search.search(ref, { q, limit: 10 })).items.length),
    );
    check(
      pages.every((count) => count > 0),
      `${pages.filter((c) => c === 0).length} of ${queries.length} searches at ${passages} passages returned nothing`,
    );
    // Known items: a document's own title finds it.
    const probes = Array.from({ length: 20 }, (_, i) => Math.floor((i * items) / 20));
    let knownFound = 0;
    for (const i of probes) {
      const title = corpus[i % corpus.length]!.title;
      const page = await stack.services.search.search(ref, { q: title, limit: 10 });
      // The corpus cycles: any copy of the document is that document.
      if (page.items.some((r) => r.title === title)) knownFound += 1;
    }
    check(
      knownFound >= 18,
      `only ${knownFound} of 20 documents were found in the top 10 by their own titles at ${passages} passages`,
    );
    const embed = await timeEach(queries, (q) => embedder.embed([q], 'query'));
    const { vectors } = await embedder.embed(queries, 'query');
    // Each leg timed alone must answer too: the vector leg its full 200, the keyword leg something for nearly every query.
    let keywordEmpty = 0;
    const keyword = await timeEach(queries, async (q) => {
      if (!(await index.keywordSearch(ref, { text: q, limit: 200 })).length) keywordEmpty += 1;
    });
    check(
      keywordEmpty <= queries.length * 0.05,
      `the keyword leg found nothing for ${keywordEmpty} of ${queries.length} queries`,
    );
    // The keyword leg ranks a large library without its common terms, scoring only the holders of its rarest
    // (sqlite-keyword-leg.ts, CommonTerms):
    // how much of the top 10 by every term it keeps, as documents (the corpus cycles: its copies of a document
    // score alike, and which copies fill a tie is no difference).
    const everyTerm = new SqliteSearchIndex(stack.db, embedder.dimensions, embedder.name, {
      legs: new SqliteSearchLegs(stack.db, embedder.dimensions, undefined, null),
    });
    // A query the every-term ranking finds nothing for has nothing to keep: it is left out, not counted as kept.
    const kept: number[] = [];
    for (const q of queries) {
      const ruled = new Set((await index.keywordSearch(ref, { text: q, limit: 10 })).map((h) => h.title));
      const full = new Set((await everyTerm.keywordSearch(ref, { text: q, limit: 10 })).map((h) => h.title));
      if (full.size) kept.push([...full].filter((title) => ruled.has(title)).length / full.size);
    }
    check(
      kept.length >= queries.length * 0.95,
      `the every-term ranking found nothing for ${queries.length - kept.length} of ${queries.length} queries`,
    );
    const keywordAgreement = kept.reduce((a, b) => a + b, 0) / kept.length;
    const vector = await timeEach(vectors, async (v) => {
      const hits = await index.vectorSearch(ref, { vector: v, limit: 200 });
      check(hits.length === 200, `the vector leg answered ${hits.length} passages of 200`);
    });
    // Recall: query vectors near the corpus's clusters, the leg's top 10 against the exact top 10.
    const recallProbes = Array.from({ length: 20 }, (_, i) => clusteredVector(embedder.dimensions, (i * 97) % CENTRES));
    const rowidOf = new Map<string, number>();
    const found: number[][] = [];
    for (const probe of recallProbes) {
      const hits = await index.vectorSearch(ref, { vector: probe, limit: 10 });
      found.push(
        hits.map((hit) => {
          const key = `${hit.itemId}#${hit.passage.ordinal}`;
          if (!rowidOf.has(key))
            rowidOf.set(
              key,
              stack.db
                .prepare(
                  'SELECT p.rowid FROM passages p JOIN items i ON i.rowid = p.item_rowid WHERE i.item_id = ? AND p.ordinal = ?',
                )
                .pluck()
                .get(hit.itemId, hit.passage.ordinal) as number,
            );
          return rowidOf.get(key)!;
        }),
      );
    }
    const recall = vectorRecall(stack, recallProbes, found);
    console.log(
      `search at ${passages} passages (${items} documents, filled in ${fillSeconds.toFixed(0)} s): ${ms(total)} over ${queries.length} queries, every one with results; ${knownFound}/20 known items found by title`,
    );
    console.log(
      `  parts: query embedding ${ms(embed)}; keyword leg ${ms(keyword)} (${keywordEmpty} found nothing; its top 10 holds ${(100 * keywordAgreement).toFixed(1)}% of the top 10 by every term); vector leg ${ms(vector)} (200 candidates a leg); vector recall@10 against exact ${recall.toFixed(3)}`,
    );
    if (tenant) {
      server ??= await startServer({ dataDir, label: 'search' });
      console.log(`  over HTTP: ${await httpSearches(new Http(server.url, tenant.apiKey, newTally()), passages)}`);
    }
  }
  await server?.kill();
  stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The same queries as GET /v1/search from a `library serve` on the same folder: what a caller waits for, every answer checked. */
async function httpSearches(http: Http, passages: number): Promise<string> {
  const path = (q: string) => `/v1/search?q=${encodeURIComponent(q)}&limit=10`;
  for (const q of queries.slice(0, 10)) await http.get(path(q)); // the server's model and vector cache warm up
  const times: number[] = [];
  for (const q of queries) {
    const response = await http.get<{ results: unknown[] }>(path(q));
    times.push(response.ms);
    check(
      response.status === 200 && response.body.results.length > 0,
      `GET /v1/search at ${passages} passages answered HTTP ${response.status} with ${response.body.results?.length ?? 0} results`,
    );
  }
  const beside = await healthBesideSearches(http, path);
  return `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms over ${queries.length} queries (library serve in its own process, query embedding included), every one with results\n  ${beside}`;
}

/**
 * What the server's other callers wait for while it searches: GET /v1/health
 * idle, then again while two clients search back to back (a slow leg must
 * not stall every other request).
 */
async function healthBesideSearches(http: Http, path: (q: string) => string): Promise<string> {
  const health = async () => {
    const response = await http.get('/v1/health');
    check(response.status === 200, `GET /v1/health answered HTTP ${response.status}`);
    return response.ms;
  };
  const idle: number[] = [];
  for (let i = 0; i < 100; i++) idle.push(await health());
  const during: number[] = [];
  let searching = true;
  // The searches beside must be real ones: a fast failure would leave the server idle and the figure meaningless.
  const searchers = Promise.all(
    [0, 1].map(async (client) => {
      for (let i = client; i < queries.length; i += 2) {
        const response = await http.get<{ results: unknown[] }>(path(queries[i]!));
        check(
          response.status === 200 && response.body.results.length > 0,
          `GET /v1/search beside health checks answered HTTP ${response.status} with ${response.body.results?.length ?? 0} results`,
        );
      }
    }),
  ).finally(() => {
    searching = false;
  });
  while (searching) {
    during.push(await health());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await searchers;
  const fmt = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;
  return `GET /v1/health idle: ${fmt(idle)}; while two clients search: ${fmt(during)} (${during.length} requests)`;
}

/** Grep never embeds: a tiny stand-in keeps the vector table small. */
const noModel: Embedder = {
  name: 'none',
  dimensions: 4,
  embed: async (texts) => ({ vectors: texts.map(() => new Float32Array([1, 0, 0, 0])), tokens: 0 }),
};

/** How many lines of the indexed texts hold the pattern: the truth a grep's pages must add up to. */
function linesHolding(texts: readonly string[], pattern: string, caseSensitive: boolean): number {
  const needle = caseSensitive ? pattern : pattern.toLowerCase();
  let count = 0;
  for (const text of texts)
    for (const line of text.split('\n')) if ((caseSensitive ? line : line.toLowerCase()).includes(needle)) count += 1;
  return count;
}

async function grepBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-grep-'));
  const stack: LocalStack = await openLocalStack({ dataDir, embedder: noModel });
  await stack.ports.documents.touchLibrary(benchRef, stamp(0));
  const t0 = performance.now();
  const texts: string[] = [];
  for (let i = 0; i < grepDocs; i++) {
    const next = item(i, noModel.dimensions, 1);
    texts.push(next.text);
    await stack.ports.index.put(benchRef, next);
  }
  const fillSeconds = (performance.now() - t0) / 1000;
  // Common and rare words, a phrase, a case-sensitive acronym, literal punctuation, and misses.
  const patterns: Array<{ pattern: string; caseSensitive: boolean }> = [
    ...[
      'cancer',
      'mitochondria',
      'T cells',
      'p53',
      'Alzheimer',
      'randomized controlled trial',
      'zebrafish',
      'HIV-1',
      'insulin resistance',
      'CRISPR',
      'no such phrase here',
      'xylophone',
      '95% CI',
      'e.g.',
      'of the',
    ].map((pattern) => ({ pattern, caseSensitive: false })),
    ...['DNA', 'TNF-α', 'Mice'].map((pattern) => ({ pattern, caseSensitive: true })),
  ];
  // Each pattern's first page against the truth: as many lines as there are up to the page's 50, each holding the pattern
  // (a page that stopped at its byte or time budget holds fewer and says there is more).
  for (const p of patterns) {
    const truth = linesHolding(texts, p.pattern, p.caseSensitive);
    const page = await stack.services.grep.grep(benchRef, { ...p, limit: 50 });
    const shown = page.items.length;
    check(
      shown === Math.min(50, truth) || (page.hasMore && shown < Math.min(50, truth)),
      `grep "${p.pattern}" showed ${shown} lines where the texts hold ${truth}`,
    );
    check(
      page.items.every((r) =>
        (p.caseSensitive ? r.snippet : r.snippet.toLowerCase()).includes(
          p.caseSensitive ? p.pattern : p.pattern.toLowerCase(),
        ),
      ),
      `grep "${p.pattern}" showed a line without it`,
    );
  }
  const runs = Array.from({ length: 5 }, () => patterns).flat();
  const times = await timeEach(runs, (p) => stack.services.grep.grep(benchRef, { ...p, limit: 50 }));
  console.log(
    `grep over ${grepDocs} documents (filled in ${fillSeconds.toFixed(0)} s): ${ms(times)} over ${runs.length} greps (${patterns.length} patterns, first page of 50, each checked against a plain scan of the texts)`,
  );
  stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}

process.on('exit', killAllServers);
console.log(`bench:search on ${new Date().toISOString()}`);
console.log(machineLine());
await searchBench();
await grepBench();
console.log(`${machineLine()} (at the end)`);
