/**
 * A second embedder for the benchmarks, served as an OpenAI-compatible
 * `POST /v1/embeddings` on loopback, so the real server uses it exactly as
 * it would Ollama or TEI (LIBRARY_EMBED_URL, LIBRARY_EMBED_MODEL): the
 * offline model's vectors moved onto another cosine scale
 * (test/support/shifted-embedder.ts: every cosine c becomes (c + 1) / 2, so
 * unrelated texts score about 0.55 instead of 0.1). The meaning is the same;
 * only a gate that ignores the scale tells them apart.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbedderPool } from '../../lambdas/adapters/local/embedder-pool.js';
import { ShiftedEmbedder } from '../../test/support/shifted-embedder.js';

export const SHIFTED_MODEL = 'use-lite-shifted';

export async function startShiftedEmbeddingsServer(): Promise<{ url: string; model: string; close(): Promise<void> }> {
  const pool = await EmbedderPool.start();
  const embedder = new ShiftedEmbedder(pool);
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', async () => {
      try {
        const body = JSON.parse(raw || '{}') as { input?: string[] | string };
        const input = Array.isArray(body.input) ? body.input : [body.input ?? ''];
        const { vectors, tokens } = await embedder.embed(input, 'passage');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: SHIFTED_MODEL,
            usage: { prompt_tokens: tokens, total_tokens: tokens },
            data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) })),
          }),
        );
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String((error as Error)?.message ?? error) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    model: SHIFTED_MODEL,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}
