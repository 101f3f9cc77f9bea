/**
 * npm run bench:chat — the grounded chat on BEIR SciFact (read in place from
 * $SCIFACT_DIR, never copied):
 *
 *   - supported: for each test claim asked as a question, whether the reply's
 *     sources include a document judged relevant to it        (goal >= 0.85)
 *   - absent: on 50 questions about things the corpus does not hold, the
 *     share answered with empty sources                         (goal >= 0.95)
 *   - latency: p50 of one chat with the offline default (extractive
 *     answerer, the real sentence encoder embedding the question, SQLite
 *     hybrid search over the whole corpus), until the answer is returned
 *     (goal <= 150 ms). The reply's vectors are computed after that, in the
 *     background; each question waits for them before it is asked, and the
 *     time until they land is printed too.
 *
 * The corpus is captured through the capture use case with its passage
 * vectors read from the embedding cache in .cache/ (bench/lib/warm-cache.ts
 * fills it; misses are embedded by the real model and kept); the chats
 * themselves embed live.
 *
 * Run with the offline embedder and with a second one on another cosine
 * scale (test/support/shifted-embedder.ts: the same vectors, every cosine
 * moved up), so the gate's calibration per embedder is measured.
 *
 * Options: --split test|train (default test), --questions N (first N claims), --embedder use|shifted|both (default both),
 *          --docs N (only the first N abstracts and the claims they answer: quick runs while developing)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbedderPool } from '../lambdas/adapters/local/embedder-pool.js';
import { DEFAULT_CHUNKING } from '../lambdas/core/chunking.js';
import type { LibraryRef } from '../lambdas/core/model.js';
import type { Embedder } from '../lambdas/core/ports.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { ShiftedEmbedder } from '../test/support/shifted-embedder.js';
import { ABSENT_QUESTIONS } from './chat-absent-questions.js';
import { benchArgs } from './lib/args.js';
import { CachedEmbedder, chunkingNamespace } from './lib/embedding-cache.js';
import { machineLine } from './lib/machine.js';
import { mean, percentile } from './lib/metrics.js';
import { captureCorpus, claimsIn, loadScifact } from './lib/scifact.js';

const args = benchArgs('bench:chat', {
  options: {
    split: { type: 'string', default: 'test' },
    questions: { type: 'string' },
    docs: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    embedder: { type: 'string', default: 'both' },
  },
});
const split = args.split === 'train' ? 'train' : 'test';

/** Serves the corpus from the cache while loading, then the live model for the chats. */
class PhasedEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  current: Embedder;
  constructor(
    readonly loading: Embedder,
    private readonly live: Promise<Embedder>,
  ) {
    this.name = loading.name;
    this.dimensions = loading.dimensions;
    this.current = loading;
  }
  async goLive() {
    this.current = await this.live;
  }
  embed(texts: readonly string[], purpose: 'query' | 'passage') {
    return this.current.embed(texts, purpose);
  }
}

const { corpus: fullCorpus, queries, qrels } = loadScifact(split);
const corpus = args.docs ? fullCorpus.slice(0, Number(args.docs)) : fullCorpus;
let claims = claimsIn(corpus, queries, qrels);
if (args.questions) claims = claims.slice(0, Number(args.questions));

/** The offline model, or the same vectors on another cosine scale (test/support/shifted-embedder.ts): the gate must refuse and admit alike. */
type EmbedderKind = 'use' | 'shifted';
const kinds: EmbedderKind[] =
  args.embedder === 'use' ? ['use'] : args.embedder === 'shifted' ? ['shifted'] : ['use', 'shifted'];
const results = new Map<EmbedderKind, { supported: number; absent: number }>();
for (const kind of kinds) await run(kind);
if (results.has('use') && results.has('shifted')) {
  const [a, b] = [results.get('use')!, results.get('shifted')!];
  const gap = Math.max(Math.abs(a.supported - b.supported), Math.abs(a.absent - b.absent));
  console.log('\n| goal | value | target | met |\n| --- | --- | --- | --- |');
  console.log(
    `| the second embedder within 0.03 of the offline one, supported and absent | ${gap.toFixed(3)} | <= 0.03 | ${gap <= 0.03 ? 'yes' : 'NO'} |`,
  );
}

async function run(kind: EmbedderKind) {
  const cache = new CachedEmbedder({ namespace: chunkingNamespace(DEFAULT_CHUNKING) });
  const live = EmbedderPool.start();
  const phased = new PhasedEmbedder(cache, live);
  const embedder: Embedder & { goLive(): Promise<void> } =
    kind === 'use' ? phased : Object.assign(new ShiftedEmbedder(phased), { goLive: () => phased.goLive() });
  const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-chat-'));
  const stack = await openLocalStack({ dataDir, embedder });
  const ref: LibraryRef = { tenantId: 'ten_scifact', endUserId: null };

  try {
    let started = performance.now();
    const docOfFile = await captureCorpus(stack, ref, corpus);
    console.log(
      `library: ${corpus.length} abstracts captured in ${((performance.now() - started) / 1000).toFixed(0)} s ` +
        `(cache hits ${cache.stats.hits}, misses ${cache.stats.misses})`,
    );
    await embedder.goLive();
    await stack.services.chat.chat({ tenantId: 'ten_warmup', endUserId: null }, 'warm up the model'); // load, JIT

    const latencies: number[] = [];
    const untilRemembered: number[] = [];
    const ask = async (question: string) => {
      const t = performance.now();
      const response = await stack.services.chat.chat(ref, question);
      latencies.push(performance.now() - t);
      // The reply's vectors are computed after the answer; like a person
      // reading it, the next question waits until they have landed.
      await stack.settled();
      untilRemembered.push(performance.now() - t);
      return response;
    };

    started = performance.now();
    let supported = 0;
    let answered = 0;
    const sourceCounts: number[] = [];
    for (const claim of claims) {
      const response = await ask(claim.text);
      const cited = response.sources.map((s) => docOfFile.get(s.file_id));
      const relevant = qrels.get(claim.id)!;
      const hit = cited.some((id) => id !== undefined && (relevant.get(id) ?? 0) > 0);
      if (hit) supported += 1;
      if (cited.length) answered += 1;
      sourceCounts.push(cited.length);
      if (args.verbose && !hit)
        console.log(
          `MISS ${claim.id}: ${claim.text}\n  cited ${cited.join(', ') || '-'}; relevant ${[...relevant.keys()].join(', ')}`,
        );
    }

    let empty = 0;
    for (const question of ABSENT_QUESTIONS) {
      const response = await ask(question);
      if (!response.sources.length) empty += 1;
      else if (args.verbose) console.log(`ANSWERED ABSENT: ${question}\n  ${response.reply.slice(0, 200)}`);
    }
    const seconds = (performance.now() - started) / 1000;

    const p50 = percentile(latencies, 50);
    const rows: Array<[string, string, string, boolean]> = [
      [
        `supported: sources include a relevant document (${claims.length} ${split} claims)`,
        (supported / claims.length).toFixed(3),
        '>= 0.85',
        supported / claims.length >= 0.85,
      ],
      [
        `absent: empty sources (${ABSENT_QUESTIONS.length} questions)`,
        (empty / ABSENT_QUESTIONS.length).toFixed(3),
        '>= 0.95',
        empty / ABSENT_QUESTIONS.length >= 0.95,
      ],
      ['latency p50 of one chat, offline default (ms)', p50.toFixed(1), '<= 150', p50 <= 150],
    ];
    results.set(kind, { supported: supported / claims.length, absent: empty / ABSENT_QUESTIONS.length });
    console.log(
      `\nbench:chat on BEIR SciFact (${split}), chat model: ${stack.ports.chatModel.name}, embedder: ${embedder.name}`,
    );
    console.log(machineLine());
    console.log('| measure | value | goal | met |\n| --- | --- | --- | --- |');
    for (const [name, value, goal, met] of rows)
      console.log(`| ${name} | ${value} | ${goal} | ${met ? 'yes' : 'NO'} |`);
    console.log(
      `\nclaims answered with sources: ${(answered / claims.length).toFixed(3)}; mean sources per answer: ${mean(sourceCounts.filter((n) => n > 0)).toFixed(2)}; ` +
        `latency p95 ${percentile(latencies, 95).toFixed(1)} ms; ${latencies.length} chats in ${seconds.toFixed(0)} s`,
    );
    console.log(
      `until the exchange is remembered (the reply's vectors attached in the background): p50 ${percentile(untilRemembered, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(untilRemembered, 95).toFixed(1)} ms`,
    );
  } finally {
    stack.close();
    await (await live).close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
