/**
 * Fills the embedding cache with every SciFact passage (as the capture path
 * chunks it) and every query, so bench:quality runs without the model.
 * Run: npx tsx bench/lib/warm-cache.ts   (resumable: only misses are embedded)
 */
import { chunkText, DEFAULT_CHUNKING } from '../../lambdas/core/chunking.js';
import { CachedEmbedder, chunkingNamespace } from './embedding-cache.js';
import { documentText, loadCorpus, loadScifact } from './scifact.js';

const embedder = new CachedEmbedder({ namespace: chunkingNamespace(DEFAULT_CHUNKING) });
const corpus = loadCorpus();
const queries = [...loadScifact('train').queries, ...loadScifact('test').queries];
await embedder.embed(
  queries.map((q) => q.text),
  'query',
);

const started = performance.now();
const BATCH = 32;
let pending: string[] = [];
let done = 0;
for (const doc of corpus) {
  pending.push(...chunkText(documentText(doc)).map((p) => p.text));
  done += 1;
  if (pending.length >= BATCH || done === corpus.length) {
    await embedder.embed(pending, 'passage');
    pending = [];
    if (done % 200 < 8 || done === corpus.length) {
      const s = (performance.now() - started) / 1000;
      console.log(
        `${done}/${corpus.length} documents, ${embedder.stats.misses} passages embedded in ${s.toFixed(0)} s`,
      );
    }
  }
}
console.log(`cache ${embedder.file}: ${embedder.size} vectors`);
