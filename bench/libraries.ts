/**
 * npm run bench:libraries — many small end-user libraries in one data folder
 * (issue 20): 5,000 libraries of 80 passages each, every one searched once
 * cold (its vectors not in memory) and once warm, with the vector cache at
 * its default budget (LIBRARY_VECTOR_CACHE_MB, else 512 MiB).
 *
 * The index is the real local one, filled through the SearchIndex port after
 * each library's record is made (as bench:search does); texts are generated
 * English (bench/lib/english.ts), vectors synthetic unit vectors of the
 * offline embedder's 512 dimensions. Each search is a vector-leg search of
 * the library's own index plus its keyword leg, and must return the library's
 * own passages (a wrong or empty answer stops the run).
 *
 * Prints: the first (cold) search's p50/p99 and a warm one's, the process's
 * peak resident memory, the vector cache's size, and the data folder's size
 * against what it stores (texts and vectors).
 *
 * Goals: RSS <= 1 GB with the default budget; cold first search p99 <= 50 ms;
 * data folder <= 1.5x what it stores (texts, vectors and their indexes).
 *
 *   npm run bench:libraries [-- --libraries 5000 --passages 80]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../lambdas/adapters/local/database.js';
import { SqliteDocumentStore } from '../lambdas/adapters/local/sqlite-document-store.js';
import { SqliteSearchIndex } from '../lambdas/adapters/local/sqlite-search-index.js';
import { DEFAULT_VECTOR_CACHE_MB } from '../lambdas/adapters/local/vector-cache.js';
import type { IndexItem, LibraryRef } from '../lambdas/core/model.js';
import { benchArgs } from './lib/args.js';
import { query, rng, sentence } from './lib/english.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';

const args = benchArgs('bench:libraries', {
  options: {
    libraries: { type: 'string', default: '5000' },
    passages: { type: 'string', default: '80' },
  },
});
const libraries = Number(args.libraries);
const passagesEach = Number(args.passages);
const DIMENSIONS = 512;
const budgetMb = Number(process.env.LIBRARY_VECTOR_CACHE_MB || DEFAULT_VECTOR_CACHE_MB);

const random = rng(7);
function unitVector(): Float32Array {
  const v = new Float32Array(DIMENSIONS);
  let norm = 0;
  for (let i = 0; i < DIMENSIONS; i++) {
    v[i] = random() - 0.5;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < DIMENSIONS; i++) v[i]! /= norm;
  return v;
}

const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-libraries-'));
const db = openDatabase(join(dataDir, 'library.db'));
const documents = new SqliteDocumentStore(db);
const index = new SqliteSearchIndex(db, DIMENSIONS, 'synthetic', { vectorCacheBytes: budgetMb * 2 ** 20 });
const refOf = (i: number): LibraryRef => ({ tenantId: 'ten_bench', endUserId: `user-${i}` });
const at = new Date(Date.UTC(2026, 0, 1)).toISOString();

console.log(`bench:libraries on ${new Date().toISOString()}`);
console.log(machineLine());
let textBytes = 0;
const t0 = performance.now();
// Ten notes of eight passages each per library: a passage is one sentence, as a short note's lines are.
for (let l = 0; l < libraries; l++) {
  const ref = refOf(l);
  await documents.touchLibrary(ref, at);
  for (let n = 0; n < passagesEach / 8; n++) {
    const lines = Array.from({ length: 8 }, () => sentence(random));
    const text = lines.join('\n');
    textBytes += Buffer.byteLength(text);
    const item: IndexItem = {
      itemId: `file_${String(l).padStart(6, '0')}${String(n).padStart(4, '0')}`,
      kind: 'file_excerpt',
      title: lines[0]!.slice(0, 60),
      sourceRef: `notes/${n}`,
      contentDate: at,
      text,
      passages: lines.map((line, ordinal) => ({ ordinal, lineStart: ordinal + 1, lineEnd: ordinal + 1, text: line })),
      vectors: lines.map(() => unitVector()),
    };
    await index.put(ref, item);
  }
}
const fillSeconds = (performance.now() - t0) / 1000;
db.pragma('wal_checkpoint(TRUNCATE)');

let peakRss = process.memoryUsage().rss;
const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
const search = async (l: number) => {
  const ref = refOf(l);
  const t = performance.now();
  const generation = (await documents.libraryGeneration(ref, { readOnly: true })) ?? undefined;
  const vectorHits = await index.vectorSearch(ref, { vector: unitVector(), limit: 10, generation });
  const keywordHits = await index.keywordSearch(ref, { text: query(random), limit: 10, generation });
  const ms = performance.now() - t;
  const own = `file_${String(l).padStart(6, '0')}`;
  if (vectorHits.length !== 10 || !vectorHits.every((hit) => hit.itemId.startsWith(own))) {
    throw new Error(`bench:libraries: library ${l}'s search answered ${vectorHits.length} hits, not its own 10`);
  }
  if (!keywordHits.every((hit) => hit.itemId.startsWith(own)))
    throw new Error(`bench:libraries: library ${l}'s keyword leg left it`);
  return ms;
};
const cold: number[] = [];
for (let l = 0; l < libraries; l++) {
  cold.push(await search(l));
  if (l % 100 === 0) sample();
}
const warm: number[] = [];
for (let l = Math.max(0, libraries - 200); l < libraries; l++) warm.push(await search(l));
sample();

const folderBytes = readdirSync(dataDir).reduce((sum, name) => sum + statSync(join(dataDir, name)).size, 0);
const vectorBytes = libraries * passagesEach * DIMENSIONS * 4;
const stored = textBytes + vectorBytes;
const fmt = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms`;
console.log(
  `${libraries} libraries of ${passagesEach} passages (${libraries * passagesEach} in all), filled in ${fillSeconds.toFixed(0)} s`,
);
console.log(`first (cold) search of each library, vector and keyword legs: ${fmt(cold)}; warm: ${fmt(warm)}`);
console.log(
  `vector cache: budget ${budgetMb} MiB; peak resident memory of this process ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
);
console.log(
  `data folder ${(folderBytes / 2 ** 20).toFixed(0)} MiB for ${(stored / 2 ** 20).toFixed(0)} MiB stored (texts ${(textBytes / 2 ** 20).toFixed(0)} MiB, vectors ${(vectorBytes / 2 ** 20).toFixed(0)} MiB): ${(folderBytes / stored).toFixed(2)}x`,
);
console.log('\n| goal | value | target | met |\n| --- | --- | --- | --- |');
const row = (goal: string, value: string, target: string, met: boolean) =>
  console.log(`| ${goal} | ${value} | ${target} | ${met ? 'yes' : 'NO'} |`);
row('peak resident memory', `${(peakRss / 2 ** 20).toFixed(0)} MiB`, '<= 1024 MiB', peakRss <= 2 ** 30);
row('cold first search p99', `${percentile(cold, 99).toFixed(1)} ms`, '<= 50 ms', percentile(cold, 99) <= 50);
row('data folder / stored', `${(folderBytes / stored).toFixed(2)}x`, '<= 1.5x', folderBytes / stored <= 1.5);
console.log(`${machineLine()} (at the end)`);
db.close();
rmSync(dataDir, { recursive: true, force: true });
