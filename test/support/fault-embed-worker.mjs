// A stand-in for lambdas/adapters/local/use-worker.mjs in tests of the
// embedder pool: no model, a deterministic hashed bag of words (16
// dimensions, unit length), and faults steered by the texts it is sent:
//
//   EXIT_WORKER  the worker thread exits with code 1
//   WASM_BROKEN  posts { id, error: 'RuntimeError: memory access out of bounds' }
//   BAD_TEXT     posts an ordinary { id, error: 'bad input' }
//   HANG         never answers
//
// workerData (besides role, which the pool sets):
//   stats            SharedArrayBuffer of STATS_SLOTS int32s, a side channel the
//                    test reads (indices below)
//   delayMs          { query?, passage? }: milliseconds per text, spent blocking
//                    the thread as a model would
//   failAfterStart   starts fine, then every call fails as a broken runtime
//   failStartsAfter  with stats: the n-th start and later ones throw before
//                    announcing ready (a replacement that never comes up)
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';

const NAME = 'fault-test-embedder';
const DIMENSIONS = 16;

// Indices into the stats buffer (test/unit/embedder-pool.test.ts mirrors them).
const STARTS = 0; // workers that began starting
const CALLS = 1; // calls received
const TEXTS = 2; // texts received
const MAX_BATCH = 3; // largest call, in texts
const IN_FLIGHT = 4; // calls being computed right now, over all workers
const MAX_IN_FLIGHT = 5; // most calls computed at once
const QUERY_ROLE_CALLS = 6; // calls received by the query worker
const PASSAGE_ROLE_CALLS = 7; // calls received by passage workers

const data = workerData ?? {};
const stats = data.stats ? new Int32Array(data.stats) : null;

const raiseTo = (index, value) => {
  for (;;) {
    const seen = Atomics.load(stats, index);
    if (value <= seen || Atomics.compareExchange(stats, index, seen, value) === seen) return;
  }
};

const startNumber = stats ? Atomics.add(stats, STARTS, 1) : 0;
if (stats && data.failStartsAfter !== undefined && startNumber >= data.failStartsAfter) {
  throw new Error('the fault worker refuses to start');
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function embedOne(text) {
  const v = new Float32Array(DIMENSIONS);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash('md5').update(word).digest();
    v[h.readUInt16LE(0) % DIMENSIONS] += h[2] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

parentPort.on('message', ({ id, texts, count }) => {
  if (stats) {
    Atomics.add(stats, CALLS, 1);
    Atomics.add(stats, TEXTS, texts.length);
    raiseTo(MAX_BATCH, texts.length);
    Atomics.add(stats, data.role === 'query' ? QUERY_ROLE_CALLS : PASSAGE_ROLE_CALLS, 1);
    raiseTo(MAX_IN_FLIGHT, Atomics.add(stats, IN_FLIGHT, 1) + 1);
  }
  try {
    const has = (marker) => texts.some((text) => text.includes(marker));
    if (data.failAfterStart) return parentPort.postMessage({ id, error: 'RuntimeError: unreachable' });
    if (has('HANG')) return;
    if (has('EXIT_WORKER')) process.exit(1);
    if (has('WASM_BROKEN')) return parentPort.postMessage({ id, error: 'RuntimeError: memory access out of bounds' });
    if (has('BAD_TEXT')) return parentPort.postMessage({ id, error: 'bad input' });
    // Tokens: one per word, as a stand-in for the model's tokenizer.
    const tokensEach = texts.map((t) => t.match(/\S+/g)?.length ?? 0);
    const tokens = tokensEach.reduce((sum, n) => sum + n, 0);
    if (count) return parentPort.postMessage({ id, tokens });
    const delay = data.delayMs?.[data.role] ?? 0;
    if (delay) sleep(delay * texts.length);
    const flat = new Float32Array(texts.length * DIMENSIONS);
    texts.forEach((text, i) => flat.set(embedOne(text), i * DIMENSIONS));
    parentPort.postMessage({ id, flat, tokens, tokensEach }, [flat.buffer]);
  } finally {
    if (stats) Atomics.sub(stats, IN_FLIGHT, 1);
  }
});
parentPort.postMessage({ ready: true, name: NAME, dimensions: DIMENSIONS });
