import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAiCompatibleConfig } from '../../lambdas/adapters/local/openai-compatible-chat.js';
import type { OpenAiEmbedderConfig } from '../../lambdas/adapters/local/openai-compatible-embedder.js';
import type { ChatModel, Embedder } from '../../lambdas/core/ports.js';
import { createLocalHandlers } from '../../lambdas/local-gateway/handlers.js';
import { startLocalServer } from '../../lambdas/local-gateway/server.js';
import type { DrainOptions } from '../../lambdas/wiring/local/ingest-drain.js';
import { type LocalBucketOptions, type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { isolateAwsEnvironment } from './aws-env.js';

export interface TestServer {
  url: string;
  stack: LocalStack;
  dataDir: string;
  /** Creates a tenant (or a new key for it) and returns its key. */
  newKey(tenant: string): Promise<string>;
  api(
    path: string,
    init?: { method?: string; key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    body: any;
  }>;
  /**
   * The document once it has left `processing` (ready or failed), read as its
   * key sees it, in the end user's library when one is given; throws after
   * `timeoutMs` (default 120 s).
   */
  settled(key: string, id: string, options?: { endUserId?: string; timeoutMs?: number }): Promise<any>;
  /**
   * `POST /v1/capture` of `item`, then waits until the document is findable
   * by meaning; throws unless the capture answered 201 and the document became
   * `ready`. Its id.
   */
  captureReady(key: string, item: { text: string; end_user_id?: string; [field: string]: unknown }): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the real local server (real SQLite, real blob folder, the real
 * embedder unless one is given) on a free port over a fresh data folder.
 * Until it closes, the process is a machine without AWS credentials (CI has
 * none; a developer's own must not decide what the trust policy names), or
 * one whose only credentials are `awsCredentials`, in the environment.
 */
export async function startTestServer(
  options: {
    embedder?: Embedder;
    embed?: OpenAiEmbedderConfig | null;
    rateLimit?: { ratePerSecond: number; burst: number };
    chatModel?: ChatModel;
    drain?: Partial<DrainOptions>;
    dataDir?: string;
    /** An OpenAI-compatible chat server, as LIBRARY_CHAT_URL and LIBRARY_CHAT_MODEL give it. */
    chat?: OpenAiCompatibleConfig;
    buckets?: LocalBucketOptions;
    awsCredentials?: { accessKeyId: string; secretAccessKey: string };
  } = {},
): Promise<TestServer> {
  const restoreAwsEnvironment = isolateAwsEnvironment(options.awsCredentials);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'library-test-'));
  const stack = await openLocalStack({
    dataDir,
    embedder: options.embedder,
    embed: options.embed,
    chatModel: options.chatModel,
    chat: options.chat,
    drain: options.drain,
    buckets: options.buckets,
    // As the server runs it: every search's legs in their own thread.
    searchThreads: true,
  });
  const { handlers, authorizer } = createLocalHandlers(stack.services, {
    version: 'test',
    backlog: () => stack.queue.backlog(),
    dependencies: stack.dependencies,
  });
  const server = await startLocalServer({
    handlers,
    authorizer,
    port: 0,
    rateLimit: options.rateLimit ?? { ratePerSecond: 10_000, burst: 10_000 },
  });
  const self: TestServer = {
    url: server.url,
    stack,
    dataDir,
    async newKey(tenant) {
      return (await stack.services.keys.create(tenant)).api_key;
    },
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.key) headers.authorization = `Bearer ${init.key}`;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(server.url + path, {
        method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
        headers,
        body,
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async settled(key, id, { endUserId, timeoutMs = 120_000 } = {}) {
      const query = endUserId ? `?end_user_id=${encodeURIComponent(endUserId)}` : '';
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const doc = await self.api(`/v1/documents/${id}${query}`, { key });
        if (doc.status !== 200) throw new Error(`document ${id}: ${doc.status} ${JSON.stringify(doc.body)}`);
        if (doc.body.status !== 'processing') return doc.body;
        if (Date.now() > deadline) throw new Error(`document ${id} still processing after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async captureReady(key, item) {
      const res = await self.api('/v1/capture', { key, body: item });
      if (res.status !== 201) throw new Error(`capture: ${res.status} ${JSON.stringify(res.body)}`);
      const doc = await self.settled(key, res.body.id, { endUserId: item.end_user_id });
      if (doc.status !== 'ready') throw new Error(`document ${res.body.id} is ${doc.status}: ${JSON.stringify(doc)}`);
      return res.body.id as string;
    },
    async close() {
      await server.close();
      stack.close();
      rmSync(dataDir, { recursive: true, force: true });
      restoreAwsEnvironment();
    },
  };
  return self;
}
