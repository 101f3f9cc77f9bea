/**
 * bench:search: search latency at 10k and 50k passages, grep latency over 20k documents.
 *
 * The index is the real local one (SQLite FTS5 + sqlite-vec in a temp data
 * folder), filled directly through the SearchIndex port: texts are SciFact
 * abstracts (cycled, chunked as capture chunks them), vectors are synthetic
 * seeded random unit vectors (exact k-NN costs the same whatever the values).
 * Each query is a SciFact query embedded for real by the local model (not
 * cached) and searched through SearchService, so a figure is embed + both
 * legs + fusion. Grep runs GrepService over 20k documents. Beside each wall
 * time, the process's CPU time per call (p50): on this shared machine the
 * wall time includes waiting for a core.
 *
 *   npm run bench:search [-- --queries 300 --sizes 10000,50000 --grep-docs 20000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkText } from '../lambdas/core/chunking.js';
import type { IndexItem, LibraryRef } from '../lambdas/core/model.js';
import { openLocalStack, type LocalStack } from '../lambdas/wiring/local/local-stack.js';
import type { Embedder } from '../lambdas/core/ports.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';
import { documentText, loadCorpus, loadScifact } from './lib/scifact.js';

const { values: args } = parseArgs({
  options: {
    queries: { type: 'string', default: '300' },
    sizes: { type: 'string', default: '10000,50000' },
    'grep-docs': { type: 'string', default: '20000' },
  },
});
const sizes = args.sizes.split(',').map(Number);
const queryCount = Number(args.queries);
const grepDocs = Number(args['grep-docs']);

const corpus = loadCorpus();
const queries = loadScifact('test').queries.map((q) => q.text).slice(0, queryCount);
const ref: LibraryRef = { tenantId: 'bench', endUserId: null };
const stamp = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().replace('Z', '000');

/** A seeded generator (mulberry32), so every run indexes the same vectors. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}
const next = random(42);
function unitVector(dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) v[i] = next();
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
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
    vectors: passages.map(() => unitVector(dimensions)),
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

async function searchBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-search-'));
  const stack = await openLocalStack({ dataDir });
  const { index, embedder } = stack.ports;
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
    const total = await timeEach(queries, (q) => stack.services.search.search(ref, { q, limit: 10 }));
    const embed = await timeEach(queries, (q) => embedder.embed([q], 'query'));
    const { vectors } = await embedder.embed(queries, 'query');
    const keyword = await timeEach(queries, (q) => index.keywordSearch(ref, { text: q, limit: 200 }));
    const vector = await timeEach(vectors, (v) => index.vectorSearch(ref, { vector: v, limit: 200 }));
    console.log(`search at ${passages} passages (${items} documents, filled in ${fillSeconds.toFixed(0)} s): ${ms(total)} over ${queries.length} queries`);
    console.log(`  parts: query embedding ${ms(embed)}; keyword leg ${ms(keyword)}; vector leg ${ms(vector)}`);
  }
  stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** Grep never embeds: a tiny stand-in keeps the vector table small. */
const noModel: Embedder = { name: 'none', dimensions: 4, embed: async (texts) => ({ vectors: texts.map(() => new Float32Array([1, 0, 0, 0])), tokens: 0 }) };

async function grepBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-grep-'));
  const stack: LocalStack = await openLocalStack({ dataDir, embedder: noModel });
  const t0 = performance.now();
  for (let i = 0; i < grepDocs; i++) await stack.ports.index.put(ref, item(i, noModel.dimensions, 1));
  const fillSeconds = (performance.now() - t0) / 1000;
  // Common and rare words, a phrase, a case-sensitive acronym, literal punctuation, and misses.
  const patterns: Array<{ pattern: string; caseSensitive: boolean }> = [
    ...['cancer', 'mitochondria', 'T cells', 'p53', 'Alzheimer', 'randomized controlled trial', 'zebrafish', 'HIV-1',
      'insulin resistance', 'CRISPR', 'no such phrase here', 'xylophone', '95% CI', 'e.g.', 'of the'].map((pattern) => ({ pattern, caseSensitive: false })),
    ...['DNA', 'TNF-α', 'Mice'].map((pattern) => ({ pattern, caseSensitive: true })),
  ];
  const runs = Array.from({ length: 5 }, () => patterns).flat();
  for (const p of patterns) await stack.services.grep.grep(ref, { ...p, limit: 50 });
  const times = await timeEach(runs, (p) => stack.services.grep.grep(ref, { ...p, limit: 50 }));
  console.log(`grep over ${grepDocs} documents (filled in ${fillSeconds.toFixed(0)} s): ${ms(times)} over ${runs.length} greps (${patterns.length} patterns, first page of 50)`);
  stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`bench:search on ${new Date().toISOString()}`);
console.log(machineLine());
await searchBench();
await grepBench();
console.log(`${machineLine()} (at the end)`);
