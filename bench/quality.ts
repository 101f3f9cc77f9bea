/**
 * bench:quality: BEIR SciFact through the real capture and search code.
 *
 * Every abstract is captured with its title (CaptureService over the local
 * SQLite adapters, chunked and embedded as in production; vectors come from
 * the embedding cache in .cache/, filled by the real model on a miss). Each
 * query then runs the keyword leg alone, the meaning leg alone and the hybrid
 * (SearchService, results collapsed to documents), scored with nDCG@10 and
 * Recall@100; MiniSearch runs beside them on the same documents as a peer.
 *
 *   npm run bench:quality                    report on the test queries
 *   npm run bench:quality -- --split train   the same on the train queries
 *   npm run bench:quality -- --sweep         fusion grid on the train queries (tuning)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { DEFAULT_CHUNKING } from '../lambdas/core/chunking.js';
import type { LibraryRef, PassageHit } from '../lambdas/core/model.js';
import { DEFAULT_FUSION, type FusionWeights, fuse } from '../lambdas/core/ranking.js';
import { DEFAULT_SEARCH, SearchService } from '../lambdas/core/search.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { benchArgs } from './lib/args.js';
import { benchEmbedder, chunkingNamespace } from './lib/embedding-cache.js';
import { machineLine } from './lib/machine.js';
import { mean, ndcgAt, recallAt } from './lib/metrics.js';
import { captureCorpus, loadScifact, type Qrels } from './lib/scifact.js';

const args = benchArgs('bench:quality', {
  options: { split: { type: 'string', default: 'test' }, sweep: { type: 'boolean', default: false } },
});
const split = args.sweep ? 'train' : (args.split as 'train' | 'test');
if (split !== 'train' && split !== 'test') throw new Error('--split train|test');

const { corpus, queries, qrels } = loadScifact(split);
const embedder = await benchEmbedder(chunkingNamespace(DEFAULT_CHUNKING)); // LIBRARY_EMBED_URL/MODEL: an embeddings server
const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-quality-'));
const stack = await openLocalStack({ dataDir, embedder });
const ref: LibraryRef = { tenantId: 'bench', endUserId: null };

// Capture: title + abstract, as a user pushing each paper would.
const started = performance.now();
const fileToDoc = await captureCorpus(stack, ref, corpus);
const captureSeconds = (performance.now() - started) / 1000;

// The two legs, exactly as SearchService.rank asks the index for them.
const limit = DEFAULT_SEARCH.candidatesPerLeg;
const legs = new Map<string, { keyword: PassageHit[]; vector: PassageHit[] }>();
for (const q of queries) {
  const {
    vectors: [vector],
  } = await embedder.embed([q.text], 'query');
  legs.set(q.id, {
    keyword: await stack.ports.index.keywordSearch(ref, { text: q.text, limit }),
    vector: await stack.ports.index.vectorSearch(ref, { vector: vector!, limit }),
  });
}

/** Document ids of a leg, best passage first, each document once. */
const collapse = (hits: readonly PassageHit[]) => [...new Set(hits.map((h) => fileToDoc.get(h.itemId)!))];

type Ranker = (q: { id: string; text: string }) => Promise<string[]> | string[];

async function evaluate(rank: Ranker, judged: Qrels = qrels) {
  const ndcg: number[] = [];
  const recall: number[] = [];
  for (const q of queries) {
    const ranked = await rank(q);
    ndcg.push(ndcgAt(ranked, judged.get(q.id)!, 10));
    recall.push(recallAt(ranked, judged.get(q.id)!, 100));
  }
  return { ndcg: mean(ndcg), recall: mean(recall) };
}

const fused =
  (weights: FusionWeights): Ranker =>
  (q) => {
    const leg = legs.get(q.id)!;
    return fuse(leg.keyword, leg.vector, weights).map((item) => fileToDoc.get(item.itemId)!);
  };

const row = (name: string, r: { ndcg: number; recall: number }) =>
  console.log(`${name.padEnd(60)} ${r.ndcg.toFixed(4).padStart(9)} ${r.recall.toFixed(4).padStart(11)}`);

if (args.sweep) {
  await sweep();
} else {
  await report();
}
stack.close();
rmSync(dataDir, { recursive: true, force: true });

async function report() {
  // The peer: MiniSearch (BM25+) over the same title + abstract, title boosted as ours is.
  const mini = new MiniSearch<{ id: string; title: string; text: string }>({
    fields: ['title', 'text'],
    idField: 'id',
  });
  mini.addAll(corpus);
  const search = new SearchService({ index: stack.ports.index, embedder, documents: stack.ports.documents });

  console.log(machineLine());
  console.log(`BEIR SciFact, ${split} split: ${queries.length} queries, ${corpus.length} documents`);
  console.log(
    `captured through CaptureService in ${captureSeconds.toFixed(1)} s (embedder: ${embedder.name}, cache ${embedder.stats.hits} hits / ${embedder.stats.misses} misses)`,
  );
  console.log(`fusion: ${JSON.stringify(DEFAULT_FUSION)}; ${limit} passages per leg; results collapsed to documents`);
  console.log(`${'ranking'.padEnd(60)} ${'nDCG@10'.padStart(9)} ${'Recall@100'.padStart(11)}`);
  row('keyword only (FTS5 BM25, Porter, title field)', await evaluate((q) => collapse(legs.get(q.id)!.keyword)));
  row('meaning only (USE-lite cosine, passages)', await evaluate((q) => collapse(legs.get(q.id)!.vector)));
  row(
    'hybrid (SearchService)',
    await evaluate(async (q) => (await search.rank(ref, q.text)).map((i) => fileToDoc.get(i.itemId)!)),
  );
  row(
    'peer: MiniSearch 7 (BM25+, defaults, title^2)',
    await evaluate((q) => mini.search(q.text, { boost: { title: 2 } }).map((r) => String(r.id))),
  );
}

async function sweep() {
  console.log(`fusion sweep on ${split} (${queries.length} queries)`);
  row('keyword only', await evaluate((q) => collapse(legs.get(q.id)!.keyword)));
  row('meaning only', await evaluate((q) => collapse(legs.get(q.id)!.vector)));
  row(`default ${JSON.stringify(DEFAULT_FUSION)}`, await evaluate(fused(DEFAULT_FUSION)));
  const results: Array<{ weights: FusionWeights; ndcg: number; recall: number }> = [];
  const grid: FusionWeights[] = [];
  for (const k of [1, 5, 10, 20, 40, 60, 100]) {
    for (const vector of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1]) grid.push({ method: 'rrf', keyword: 1, vector, k });
  }
  for (let vector = 0.05; vector < 0.61; vector += 0.05) {
    grid.push({ method: 'convex', keyword: Number((1 - vector).toFixed(2)), vector: Number(vector.toFixed(2)), k: 60 });
  }
  // The keyword leg's share by the best keyword hit's coverage (ranking.ts keywordShare).
  for (const fullCoverage of [0.2, 0.3, 0.4]) {
    for (const weakKeyword of [0.1, 0.2, 0.4, 0.6]) grid.push({ ...DEFAULT_FUSION, weakKeyword, fullCoverage });
  }
  for (const weights of grid) results.push({ weights, ...(await evaluate(fused(weights))) });
  results.sort((a, b) => b.ndcg - a.ndcg);
  for (const r of results.slice(0, 12)) row(JSON.stringify(r.weights), r);
  for (const r of results.filter((r) => r.weights.fullCoverage !== undefined))
    row(`coverage ${JSON.stringify(r.weights)}`, r);
  const best = (method: string) => results.find((r) => r.weights.method === method)!;
  row(`best rrf ${JSON.stringify(best('rrf').weights)}`, best('rrf'));
  row(`best convex ${JSON.stringify(best('convex').weights)}`, best('convex'));
}
