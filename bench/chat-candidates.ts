/**
 * Tuning aid for the chat's support gate (lambdas/core/chat/relevance.ts):
 * captures the first N SciFact abstracts (vectors from the embedding cache),
 * runs the chat retrieval for every claim of a split and for the 50 absent
 * questions, and writes every candidate passage's signals (item rank,
 * relevant or not, term coverage, matched terms, cosine) to
 * .cache/chat-candidates-<split>-<N>.json, from which thresholds are chosen.
 * Tune on train only.
 *
 *   npx tsx bench/chat-candidates.ts train 2500
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatRetriever, DEFAULT_RETRIEVAL } from '../lambdas/core/chat/retrieval.js';
import { DEFAULT_CHUNKING } from '../lambdas/core/chunking.js';
import { SearchService } from '../lambdas/core/search.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { ABSENT_QUESTIONS } from './chat-absent-questions.js';
import { CachedEmbedder, chunkingNamespace } from './lib/embedding-cache.js';
import { captureCorpus, claimsIn, loadScifact } from './lib/scifact.js';

const split = (process.argv[2] ?? 'train') as 'train' | 'test';
const ndocs = Number(process.argv[3] ?? 800);
const { corpus: full, queries, qrels } = loadScifact(split);
const corpus = full.slice(0, ndocs);
const claims = claimsIn(corpus, queries, qrels);
const cache = new CachedEmbedder({ namespace: chunkingNamespace(DEFAULT_CHUNKING) });
const dataDir = mkdtempSync(join(tmpdir(), 'chat-candidates-'));
const stack = await openLocalStack({ dataDir, embedder: cache });
const ref = { tenantId: 't', endUserId: null };
const docOf = await captureCorpus(stack, ref, corpus);
const retriever = new ChatRetriever(new SearchService(stack.ports), { ...DEFAULT_RETRIEVAL, maxItems: 20 });
const out: unknown[] = [];
for (const c of claims) {
  const { candidates: cands } = await retriever.candidates(ref, c.text);
  const rel = qrels.get(c.id)!;
  out.push({
    type: 'claim',
    q: c.text,
    cands: cands.map((x) => ({ rank: x.itemRank, rel: (rel.get(docOf.get(x.itemId)!) ?? 0) > 0, ...x.signals })),
  });
}
for (const q of ABSENT_QUESTIONS) {
  const { candidates: cands } = await retriever.candidates(ref, q);
  out.push({ type: 'absent', q, cands: cands.map((x) => ({ rank: x.itemRank, rel: false, ...x.signals })) });
}
const file = join(import.meta.dirname, `../.cache/chat-candidates-${split}-${ndocs}.json`);
writeFileSync(file, JSON.stringify(out));
console.log(`wrote ${file}`);
console.log('misses', cache.stats.misses, 'claims', claims.length);
stack.close();
rmSync(dataDir, { recursive: true, force: true });
