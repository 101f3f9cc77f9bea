/**
 * bench:capture: 2 KB text documents captured over HTTP by the real local
 * server (started in process over a temp data folder, real model, rate limit
 * lifted), beside the embedder alone on the same texts.
 *
 * "The embedder alone" is what the model itself must do for one document:
 * embed that document's passages, chunked exactly as capture chunks them
 * (DEFAULT_CHUNKING), in one model call, with nothing else around it. Every
 * capture costs that at least; the goal is that the rest (HTTP, auth,
 * hashing, SQLite writes, index) nearly vanishes beside it.
 *
 * Load on this shared machine moves both figures, so the sequential phase
 * interleaves them: embed document i alone, then capture it.
 *
 *   npm run bench:capture [-- --docs 40 --concurrency 4]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbedderPool } from '../lambdas/adapters/local/embedder-pool.js';
import { chunkText, DEFAULT_CHUNKING } from '../lambdas/core/chunking.js';
import { createLocalHandlers } from '../lambdas/local-gateway/handlers.js';
import { startLocalServer } from '../lambdas/local-gateway/server.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { benchArgs } from './lib/args.js';
import { machineLine } from './lib/machine.js';
import { mean, percentile } from './lib/metrics.js';
import { loadCorpus } from './lib/scifact.js';

const args = benchArgs('bench:capture', {
  options: { docs: { type: 'string', default: '40' }, concurrency: { type: 'string', default: '4' } },
});
const docCount = Number(args.docs);
const concurrency = Number(args.concurrency);
const DOC_BYTES = 2048;

/** Distinct ~2 KB English texts: consecutive SciFact abstracts, cut at a word boundary. */
function makeTexts(count: number, offset: number): string[] {
  const corpus = loadCorpus();
  const texts: string[] = [];
  let at = offset;
  while (texts.length < count) {
    let text = '';
    while (Buffer.byteLength(text) < DOC_BYTES) text += `${corpus[at++ % corpus.length]!.text}\n\n`;
    const cut = text.slice(0, DOC_BYTES);
    texts.push(cut.slice(0, cut.lastIndexOf(' ')).trim());
  }
  return texts;
}

const model = await EmbedderPool.start();
const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-capture-'));
const stack = await openLocalStack({ dataDir, embedder: model });
const { handlers, authorizer } = createLocalHandlers(stack.services, { version: 'bench' });
const server = await startLocalServer({ handlers, authorizer, port: 0, rateLimit: { ratePerSecond: 1e6, burst: 1e6 } });
const key = (await stack.services.keys.create('bench')).api_key;

async function capture(text: string): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(`${server.url}/v1/capture`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const receipt = (await response.json()) as { status: string; detail: string };
  if (response.status !== 201) throw new Error(`capture: HTTP ${response.status} ${receipt.status}: ${receipt.detail}`);
  return performance.now() - t0;
}

async function embedAlone(text: string): Promise<number> {
  const t0 = performance.now();
  await model.embed(
    chunkText(text, DEFAULT_CHUNKING).map((p) => p.text),
    'passage',
  );
  return performance.now() - t0;
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const texts = makeTexts(docCount * 2 + 4, 0);
const passages = texts.map((t) => chunkText(t).length);

// Warm-up: the model's first calls and SQLite's first writes are slower.
for (const text of texts.slice(0, 2)) await embedAlone(text);
for (const text of texts.slice(0, 2)) await capture(text);

// 1. One at a time, interleaved: latency of a capture beside the model's time for the same document.
const sequential = texts.slice(4, 4 + docCount);
const alone: number[] = [];
const captured: number[] = [];
for (const text of sequential) {
  alone.push(await embedAlone(text));
  captured.push(await capture(text));
}
const aloneTotal = alone.reduce((a, b) => a + b, 0);
const capturedTotal = captured.reduce((a, b) => a + b, 0);

// 2. Concurrent clients, in rounds of 2 x concurrency documents: the embedder alone on a round's
//    documents, then the same documents captured by `concurrency` clients at once.
const concurrent = texts.slice(4 + docCount);
const latencies: number[] = [];
let concurrentMs = 0;
let aloneConcurrentMs = 0;
for (let start = 0; start < concurrent.length; start += 2 * concurrency) {
  const round = concurrent.slice(start, start + 2 * concurrency);
  for (const text of round) aloneConcurrentMs += await embedAlone(text);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < round.length) latencies.push(await capture(round[next++]!));
    }),
  );
  concurrentMs += performance.now() - t0;
}
const concurrentSeconds = concurrentMs / 1000;
const aloneConcurrentRate = concurrent.length / (aloneConcurrentMs / 1000);

const aloneRate = docCount / (aloneTotal / 1000);
const sequentialRate = docCount / (capturedTotal / 1000);
const concurrentRate = concurrent.length / concurrentSeconds;
const meanPassages = mean(passages);
console.log(
  `bench:capture on ${new Date().toISOString()}: ${DOC_BYTES}-byte text documents, ${meanPassages.toFixed(1)} passages each (chunking ${JSON.stringify(DEFAULT_CHUNKING)})`,
);
console.log(
  `embedder alone (the document's passages, one model call): ${aloneRate.toFixed(2)} docs/s, p50 ${ms(percentile(alone, 50))}, p99 ${ms(percentile(alone, 99))} per document`,
);
console.log(
  `capture over HTTP, 1 client:        ${sequentialRate.toFixed(2)} docs/s, p50 ${ms(percentile(captured, 50))}, p99 ${ms(percentile(captured, 99))} (${docCount} docs)`,
);
console.log(
  `capture over HTTP, ${concurrency} clients:       ${concurrentRate.toFixed(2)} docs/s, p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (${concurrent.length} docs; embedder alone on them: ${aloneConcurrentRate.toFixed(2)} docs/s)`,
);
console.log(machineLine());
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)}%`;
console.log(
  `throughput vs the embedder alone (goal >= 80%): 1 client ${pct(sequentialRate, aloneRate)}, ${concurrency} clients ${pct(concurrentRate, aloneConcurrentRate)}`,
);
console.log(
  `latency: capture p50 / embedder-alone p50 = ${(percentile(captured, 50) / percentile(alone, 50)).toFixed(2)} (goal <= 1.25)`,
);

await server.close();
stack.close();
await model.close();
rmSync(dataDir, { recursive: true, force: true });
