/**
 * The deployment's typed configuration. bin/cdk.ts reads it once (cdk.json's
 * `library` context, overridable with `-c library='{...}'`), validates it and
 * hands it to the stacks by props; no construct reads the environment.
 */
import { parseCorsOrigins } from '../lambdas/http/cors.js';

export type RemovalChoice = 'retain' | 'destroy';

export interface LibraryConfig {
  /** Prefix of the two stacks' names: `<prefix>-Data` and `<prefix>-Api`. */
  readonly stackPrefix: string;
  /** Region to deploy to; unset: the AWS CLI profile's region (CDK_DEFAULT_REGION). */
  readonly region?: string;
  readonly account?: string;
  readonly stageName: string;
  readonly search: {
    readonly instanceType: string;
    readonly instanceCount: number;
    readonly volumeGiB: number;
    /** Spread nodes over two AZs (needs an even instance count of at least 2). */
    readonly zoneAwareness: boolean;
    readonly indexPrefix: string;
  };
  readonly models: {
    readonly embeddingModelId: string;
    readonly embeddingDimensions: 256 | 512 | 1024;
    readonly chatModelId: string;
  };
  /** Per API key (usage plan), as the contract's default: 20 requests/s, bursts of 40. */
  readonly throttling: { readonly ratePerSecond: number; readonly burst: number };
  /** How long API Gateway caches the authorizer's answer for one key; a revoked key stops working within this. */
  readonly authorizerCacheSeconds: number;
  readonly logRetentionDays: number;
  /** What `cdk destroy` does to tables, bucket, domain and key. */
  readonly removalPolicy: RemovalChoice;
  readonly lambda: { readonly memoryMiB: number; readonly timeoutSeconds: number };
  readonly ingest: {
    readonly memoryMiB: number;
    readonly timeoutSeconds: number;
    readonly maxReceiveCount: number;
    readonly inlineMaxBytes: number;
    /** Embedding steps one ingest job runs at once (each a few passages, one Bedrock call per passage). */
    readonly concurrency: number;
  };
  /** Where alarms go: an email address subscribed to the alarm topic ('' for none). */
  readonly alarms: { readonly email: string };
  /**
   * How long erased data can still be restored from backups (docs/deploy.md,
   * "Erasure and what AWS keeps"): the days of DynamoDB point-in-time
   * recovery (1 to 35). An erasure is final for the tables after this many days.
   */
  readonly erasure: { readonly pitrRecoveryDays: number };
  /**
   * CORS (docs/api-notes.md, "CORS"): the exact origins (`https://app.example.com`)
   * browser apps may call the API from. Empty (the default): no origin is
   * allowed, no preflight is answered, no CORS header is sent.
   */
  readonly cors: { readonly allowedOrigins: readonly string[] };
}

export const DEFAULT_CONFIG: LibraryConfig = {
  stackPrefix: 'Library',
  stageName: 'prod',
  search: {
    instanceType: 't3.small.search',
    instanceCount: 1,
    volumeGiB: 10,
    zoneAwareness: false,
    indexPrefix: 'library',
  },
  models: {
    embeddingModelId: 'amazon.titan-embed-text-v2:0',
    embeddingDimensions: 1024,
    chatModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
  },
  throttling: { ratePerSecond: 20, burst: 40 },
  authorizerCacheSeconds: 60,
  logRetentionDays: 30,
  removalPolicy: 'retain',
  erasure: { pitrRecoveryDays: 35 },
  lambda: { memoryMiB: 1024, timeoutSeconds: 29 },
  ingest: { memoryMiB: 3008, timeoutSeconds: 600, maxReceiveCount: 3, inlineMaxBytes: 1024 * 1024, concurrency: 4 },
  alarms: { email: '' },
  cors: { allowedOrigins: [] },
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge<T>(base: T, override: unknown, path: string): T {
  if (override === undefined) return base;
  if (!isObject(base)) return override as T;
  if (!isObject(override)) throw new Error(`library config: ${path || 'library'} must be an object`);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (!(key in (base as object)) && !['region', 'account'].includes(key))
      throw new Error(`library config: unknown setting ${path}${key}`);
    out[key] = merge((base as Record<string, unknown>)[key], value, `${path}${key}.`);
  }
  return out as T;
}

const positiveInt = (value: number, name: string, max = Number.MAX_SAFE_INTEGER) => {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`library config: ${name} must be a whole number from 1 to ${max}, not ${value}`);
};

/** Defaults overlaid with the given settings, checked; throws naming the first bad setting. */
export function resolveConfig(overrides: unknown = {}): LibraryConfig {
  const input = typeof overrides === 'string' ? (JSON.parse(overrides) as unknown) : overrides;
  const config = merge(DEFAULT_CONFIG, input ?? {}, '') as LibraryConfig & DeepPartial<LibraryConfig>;
  if (!/^[A-Za-z][A-Za-z0-9-]{0,40}$/.test(config.stackPrefix))
    throw new Error('library config: stackPrefix must be letters, digits and dashes');
  if (!/^[A-Za-z0-9_]{1,64}$/.test(config.stageName))
    throw new Error('library config: stageName must be 1 to 64 letters, digits or _');
  if (!/\.search$/.test(config.search.instanceType))
    throw new Error(
      `library config: search.instanceType must be an OpenSearch type (*.search), not ${config.search.instanceType}`,
    );
  positiveInt(config.search.instanceCount, 'search.instanceCount', 80);
  positiveInt(config.search.volumeGiB, 'search.volumeGiB', 16384);
  if (config.search.zoneAwareness && config.search.instanceCount % 2 !== 0)
    throw new Error('library config: search.zoneAwareness needs an even search.instanceCount');
  if (!/^[a-z][a-z0-9-]{0,40}$/.test(config.search.indexPrefix))
    throw new Error('library config: search.indexPrefix must be lowercase letters, digits and dashes');
  if (![256, 512, 1024].includes(config.models.embeddingDimensions))
    throw new Error('library config: models.embeddingDimensions must be 256, 512 or 1024');
  if (!config.models.embeddingModelId.startsWith('amazon.titan-embed-text-v2'))
    throw new Error('library config: models.embeddingModelId must be a Titan Text Embeddings v2 model');
  if (!/^[a-z0-9.:-]+$/.test(config.models.chatModelId))
    throw new Error('library config: models.chatModelId must be a Bedrock model or inference profile id');
  positiveInt(config.throttling.ratePerSecond, 'throttling.ratePerSecond', 10_000);
  positiveInt(config.throttling.burst, 'throttling.burst', 5_000);
  if (
    !Number.isInteger(config.authorizerCacheSeconds) ||
    config.authorizerCacheSeconds < 0 ||
    config.authorizerCacheSeconds > 3600
  ) {
    throw new Error('library config: authorizerCacheSeconds must be 0 to 3600');
  }
  positiveInt(config.logRetentionDays, 'logRetentionDays', 3653);
  if (!['retain', 'destroy'].includes(config.removalPolicy))
    throw new Error('library config: removalPolicy must be retain or destroy');
  positiveInt(config.erasure.pitrRecoveryDays, 'erasure.pitrRecoveryDays', 35);
  positiveInt(config.lambda.memoryMiB, 'lambda.memoryMiB', 10240);
  positiveInt(config.lambda.timeoutSeconds, 'lambda.timeoutSeconds', 29);
  positiveInt(config.ingest.memoryMiB, 'ingest.memoryMiB', 10240);
  positiveInt(config.ingest.timeoutSeconds, 'ingest.timeoutSeconds', 900);
  positiveInt(config.ingest.maxReceiveCount, 'ingest.maxReceiveCount', 100);
  positiveInt(config.ingest.inlineMaxBytes, 'ingest.inlineMaxBytes', 4 * 1024 * 1024);
  positiveInt(config.ingest.concurrency, 'ingest.concurrency', 16);
  if (!Array.isArray(config.cors.allowedOrigins) || !config.cors.allowedOrigins.every((o) => typeof o === 'string'))
    throw new Error('library config: cors.allowedOrigins must be a list of origins');
  parseCorsOrigins(config.cors.allowedOrigins, 'library config: cors.allowedOrigins');
  // name@domain, the domain holding a '.' neither first nor last. Its first '.' after the first
  // character is found by position ([^\s@.]*), where /@[^\s@]+\.[^\s@]+$/ tried every '.' (polynomial).
  if (config.alarms.email !== '' && !/^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/.test(config.alarms.email)) {
    throw new Error('library config: alarms.email must be an email address (or empty)');
  }
  return config;
}
