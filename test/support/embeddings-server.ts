import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers the next requests. */
export type EmbeddingsMode = 'ok' | 'error500' | 'throttle' | 'hang' | 'malformed' | 'wrong-count';

export interface EmbeddingsServer {
  /** Base URL with /v1, as a user sets LIBRARY_EMBED_URL. */
  url: string;
  model: string;
  dimensions: number;
  requests: Array<{
    path: string;
    headers: IncomingHttpHeaders;
    body: { model?: string; input?: string[]; encoding_format?: string };
  }>;
  mode: EmbeddingsMode;
  /** Milliseconds every answer waits (a slow model). */
  delayMs: number;
  /** The texts embedded so far (successful answers only), in order. */
  embedded: string[];
  /** The vector the server makes for a text, before any normalization by the client. */
  rawVector(text: string): number[];
  /** Tokens the server reports for a text: its words. */
  tokensOf(text: string): number;
  close(): Promise<void>;
}

/**
 * A small server speaking OpenAI's `POST /v1/embeddings`, as Ollama, TEI or
 * vLLM do: deterministic vectors (a hashed bag of words, deliberately not
 * unit length), usage.prompt_tokens = words read, a 401 without the key it
 * wants, a 404 for another model, and faults on demand (`mode`).
 */
export async function startEmbeddingsServer(
  options: { model?: string; dimensions?: number; apiKey?: string; reportUsage?: boolean } = {},
): Promise<EmbeddingsServer> {
  const model = options.model ?? 'test-embed';
  const dimensions = options.dimensions ?? 48;
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const rawVector = (text: string) => {
    const v = new Array<number>(dimensions).fill(0);
    for (const word of words(text)) {
      const h = createHash('sha256').update(`${model}:${word}`).digest();
      v[h.readUInt16LE(0) % dimensions]! += h[2]! & 1 ? 3 : -3;
    }
    v[dimensions - 1]! += 0.5; // never the zero vector
    return v;
  };
  const tokensOf = (text: string) => words(text).length;
  const open = new Set<import('node:http').ServerResponse>();

  const state: EmbeddingsServer = {
    url: '',
    model,
    dimensions,
    requests: [],
    mode: 'ok',
    delayMs: 0,
    embedded: [],
    rawVector,
    tokensOf,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', async () => {
      let body: EmbeddingsServer['requests'][number]['body'] = {};
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        // answered below as a bad request
      }
      state.requests.push({ path: req.url ?? '', headers: req.headers, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (state.mode === 'hang') {
        open.add(res);
        return;
      }
      if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      if (req.method !== 'POST' || req.url !== '/v1/embeddings')
        return send(404, { error: { message: `no route ${req.method} ${req.url}` } });
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`)
        return send(401, { error: { message: 'invalid api key' } });
      if (body.model !== model)
        return send(404, { error: { message: `model "${body.model}" not found, try pulling it first` } });
      if (!Array.isArray(body.input) || body.input.some((t) => typeof t !== 'string' || !t))
        return send(400, { error: { message: 'input must be non-empty strings' } });
      if (state.mode === 'error500') return send(500, { error: { message: 'the model crashed' } });
      if (state.mode === 'throttle') return send(429, { error: { message: 'slow down' } }, { 'retry-after': '3' });
      if (state.mode === 'malformed') return send(200, '{"data": [{"embedding": "not numbers"');
      const input = body.input;
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: rawVector(text) }));
      if (state.mode === 'wrong-count') data.pop();
      state.embedded.push(...input);
      const tokens = input.reduce((sum, text) => sum + tokensOf(text), 0);
      // Answered out of order, as a server may: the client must follow `index`.
      send(200, {
        object: 'list',
        model,
        data: data.reverse(),
        ...(options.reportUsage === false ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
