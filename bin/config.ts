import { resolve } from 'node:path';
import { DEFAULT_VECTOR_CACHE_MB } from '../lambdas/adapters/local/vector-cache.js';
import { CORS_ORIGINS_ENV, parseCorsOrigins } from '../lambdas/http/cors.js';
import type { LocalBucketOptions } from '../lambdas/wiring/local/local-stack.js';

/** The local service's settings, read once from the environment. */
export interface LocalConfig {
  host: string;
  port: number;
  dataDir: string;
  rateLimit: { ratePerSecond: number; burst: number };
  /** An OpenAI-compatible chat model; null: the offline extractive answerer. */
  chat: { url: string; model: string; apiKey?: string } | null;
  /** An OpenAI-compatible embeddings server; null: the offline embedder (Universal Sentence Encoder lite). */
  embed: { url: string; model: string; apiKey?: string; queryPrefix?: string; passagePrefix?: string } | null;
  /** Exact origins browser apps may call the API from (LIBRARY_CORS_ORIGINS, comma-separated); none by default. */
  corsOrigins: string[];
  /** The caller-owned bucket's local settings (docs/bucket.md, "Local stack"). */
  buckets: LocalBucketOptions;
  /** MiB the libraries' in-memory vector scans may hold, least recently searched dropped first (LIBRARY_VECTOR_CACHE_MB). */
  vectorCacheMb: number;
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

/** LIBRARY_<what>_URL and LIBRARY_<what>_MODEL together select an OpenAI-compatible server; LIBRARY_<what>_API_KEY is its key. */
function openAiServer(what: 'CHAT' | 'EMBED'): { url: string; model: string; apiKey?: string } | null {
  const url = process.env[`LIBRARY_${what}_URL`] || '';
  const model = process.env[`LIBRARY_${what}_MODEL`] || '';
  if (!url && !model) return null;
  if (!url || !model) throw new Error(`set both LIBRARY_${what}_URL and LIBRARY_${what}_MODEL, or neither`);
  if (!/^https?:\/\//.test(url)) throw new Error(`LIBRARY_${what}_URL must be an http(s) URL, not "${url}"`);
  const apiKey = process.env[`LIBRARY_${what}_API_KEY`];
  return { url, model, ...(apiKey ? { apiKey } : {}) };
}

/** The embeddings server, with the prefixes some models want before queries and passages (LIBRARY_EMBED_QUERY_PREFIX, LIBRARY_EMBED_PASSAGE_PREFIX). */
function embedConfig(): LocalConfig['embed'] {
  const server = openAiServer('EMBED');
  if (!server) return null;
  const { LIBRARY_EMBED_QUERY_PREFIX: queryPrefix, LIBRARY_EMBED_PASSAGE_PREFIX: passagePrefix } = process.env;
  return { ...server, ...(queryPrefix ? { queryPrefix } : {}), ...(passagePrefix ? { passagePrefix } : {}) };
}

export function readLocalConfig(): LocalConfig {
  return {
    host: process.env.HOST || '127.0.0.1',
    port: positiveNumber('PORT', 8787),
    dataDir: resolve(process.env.LIBRARY_DATA_DIR || './.library'),
    rateLimit: {
      ratePerSecond: positiveNumber('LIBRARY_RATE_LIMIT_RPS', 20),
      burst: positiveNumber('LIBRARY_RATE_LIMIT_BURST', 40),
    },
    chat: openAiServer('CHAT'),
    embed: embedConfig(),
    corsOrigins: parseCorsOrigins(process.env[CORS_ORIGINS_ENV]),
    buckets: {
      allowPrivateEndpoints: process.env.LIBRARY_ALLOW_PRIVATE_ENDPOINTS === '1',
      secretsKey: process.env.LIBRARY_SECRETS_KEY || undefined,
      principalArn: process.env.LIBRARY_BUCKET_PRINCIPAL_ARN || null,
      stsRegion: process.env.AWS_REGION || undefined,
    },
    vectorCacheMb: positiveNumber('LIBRARY_VECTOR_CACHE_MB', DEFAULT_VECTOR_CACHE_MB),
  };
}
