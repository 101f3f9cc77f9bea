import type { CosineScale } from '../../core/chat/calibration.js';
import { CORS_ORIGINS_ENV, parseCorsOrigins } from '../../http/cors.js';

/**
 * The AWS stack's runtime settings, read once from the environment the CDK
 * stack sets on every function. Every variable is checked at cold start: a
 * missing or malformed one stops the function with a message that names it.
 */
export interface AwsConfig {
  region: string;
  version: string;
  tables: { tenants: string; documents: string; usage: string };
  blobBucket: string;
  search: { endpoint: string; indexPrefix: string };
  embedding: { modelId: string; dimensions: 256 | 512 | 1024 };
  chatModelId: string;
  /** The ingest queue for background work (files to extract, batches, large texts to embed). */
  ingestQueueUrl: string;
  /** Files over this many bytes go to the ingest queue even when they are text. */
  inlineMaxBytes: number;
  /** Origins browser apps may call the API from (exact; none by default): http/cors.ts. */
  corsOrigins: string[];
}

/** The variable names, shared with the CDK stack that sets them (lib/). */
export const ENV = {
  version: 'LIBRARY_VERSION',
  tenantsTable: 'LIBRARY_TENANTS_TABLE',
  documentsTable: 'LIBRARY_DOCUMENTS_TABLE',
  usageTable: 'LIBRARY_USAGE_TABLE',
  blobBucket: 'LIBRARY_BLOB_BUCKET',
  searchEndpoint: 'LIBRARY_SEARCH_ENDPOINT',
  searchIndexPrefix: 'LIBRARY_SEARCH_INDEX_PREFIX',
  embeddingModelId: 'LIBRARY_EMBEDDING_MODEL_ID',
  embeddingDimensions: 'LIBRARY_EMBEDDING_DIMENSIONS',
  chatModelId: 'LIBRARY_CHAT_MODEL_ID',
  ingestQueueUrl: 'LIBRARY_INGEST_QUEUE_URL',
  inlineMaxBytes: 'LIBRARY_INLINE_MAX_BYTES',
  /** Comma-separated exact origins allowed by CORS; empty: none (the local server reads the same name). */
  corsOrigins: CORS_ORIGINS_ENV,
  /** Set on the ingest function only: the queue's maxReceiveCount. */
  ingestMaxReceiveCount: 'LIBRARY_INGEST_MAX_RECEIVE_COUNT',
  /** Set on the ingest function only: embedding steps of one job in flight at once. */
  ingestConcurrency: 'LIBRARY_INGEST_CONCURRENCY',
  /** Set on the sweeper only: after how long a processing document counts as abandoned. */
  staleAfterSeconds: 'LIBRARY_STALE_AFTER_SECONDS',
  /** Set on the functions that read files: the reader thread's bundle, a file name beside the function's own. */
  readerThread: 'LIBRARY_READER_THREAD',
  /** Set on the functions that read cosines (chat): the embedder's scale measured at deploy, `related,unrelated` (core/chat/calibration.ts). */
  embeddingScale: 'LIBRARY_EMBEDDING_SCALE',
  /**
   * Set on the functions that name end users in their logs only (lib/route-access.ts
   * `endUserLogKey`): the KMS HMAC key the end-user log key is derived from.
   */
  endUserLogKeyArn: 'LIBRARY_END_USER_LOG_KEY_ARN',
} as const;

/**
 * The variables of the functions that reach callers' buckets (and only
 * theirs: lib/route-access.ts `callerBuckets`), read by bucketConfig().
 */
export const BUCKET_ENV = {
  /** Registrations, external ids and pending deletes. */
  table: 'LIBRARY_BUCKETS_TABLE',
  /** The dedicated role customers' roles trust (GET /v1/bucket/trust-policy names it). */
  accessRoleArn: 'LIBRARY_BUCKET_ACCESS_ROLE_ARN',
  /** The KMS key that seals callers' secret keys. */
  secretsKeyArn: 'LIBRARY_BUCKET_SECRETS_KEY_ARN',
} as const;

export interface BucketConfig {
  table: string;
  accessRoleArn: string;
  secretsKeyArn: string;
}

let bucketSettings: BucketConfig | undefined;

/** The caller-bucket settings of this function, read (and checked) on the first call. */
export function bucketConfig(): BucketConfig {
  return (bucketSettings ??= readBucketConfig());
}

export function readBucketConfig(env: Record<string, string | undefined> = process.env): BucketConfig {
  const read = (name: string) => env[name]?.trim() ?? '';
  const config = {
    table: read(BUCKET_ENV.table),
    accessRoleArn: read(BUCKET_ENV.accessRoleArn),
    secretsKeyArn: read(BUCKET_ENV.secretsKeyArn),
  };
  const missing = Object.entries(BUCKET_ENV)
    .filter(([field]) => !config[field as keyof BucketConfig])
    .map(([, name]) => name);
  if (missing.length) throw new ConfigError(`missing environment variables: ${missing.join(', ')}`);
  if (!/^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/.test(config.accessRoleArn))
    throw new ConfigError(`${BUCKET_ENV.accessRoleArn} must be an IAM role ARN, not "${config.accessRoleArn}"`);
  if (!/^arn:aws[a-z-]*:kms:/.test(config.secretsKeyArn))
    throw new ConfigError(`${BUCKET_ENV.secretsKeyArn} must be a KMS key ARN, not "${config.secretsKeyArn}"`);
  return config;
}

/**
 * Where the ingest function stages a scanned PDF in the blob bucket for
 * Textract's asynchronous job (extractors.ts); the CDK stack grants the ingest
 * role this prefix and expires what a stopped function leaves there (lib/).
 */
export const TEXTRACT_STAGING_PREFIX = 'textract-staging/';

/**
 * The embedder's cosine scale this function was deployed with
 * (LIBRARY_EMBEDDING_SCALE, `related,unrelated`), or undefined where none is
 * set: the gate then reads cosines as they come.
 */
export function embeddingScale(env: Record<string, string | undefined> = process.env): CosineScale | undefined {
  const raw = env[ENV.embeddingScale]?.trim();
  if (!raw) return undefined;
  const [related, unrelated] = raw.split(',').map(Number);
  if (
    raw.split(',').length !== 2 ||
    !Number.isFinite(related) ||
    !Number.isFinite(unrelated) ||
    related! <= unrelated!
  ) {
    throw new ConfigError(
      `${ENV.embeddingScale} must be "related,unrelated" with related above unrelated, not "${raw}"`,
    );
  }
  return { related: related!, unrelated: unrelated! };
}

/**
 * The reader thread's bundle (a file name in the function's folder), or null
 * where the stack built none (tests run the TypeScript sources).
 */
export function readerThreadFile(env: Record<string, string | undefined> = process.env): string | null {
  const file = env[ENV.readerThread]?.trim();
  if (!file) return null;
  if (!/^[\w.-]+\.mjs$/.test(file))
    throw new ConfigError(`${ENV.readerThread} must be a file name ending .mjs, not "${file}"`);
  return file;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

let config: AwsConfig | undefined;

/**
 * A whole-number variable a single function is given (the ingest worker's, the
 * sweeper's), checked at cold start: a missing or out-of-range one stops the
 * function with a message that names it.
 */
export function readWholeNumber(
  name: string,
  range: { min: number; max?: number },
  env: Record<string, string | undefined> = process.env,
): number {
  const raw = env[name];
  const value = Number(raw);
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (raw === undefined || raw.trim() === '' || !Number.isInteger(value) || value < range.min || value > max) {
    throw new ConfigError(
      `${name} must be a whole number from ${range.min}${range.max === undefined ? '' : ` to ${range.max}`}, not "${raw ?? ''}"`,
    );
  }
  return value;
}

/** The configuration of this Lambda environment, read (and checked) on the first call. */
export function awsConfig(): AwsConfig {
  return (config ??= readAwsConfig());
}

export function readAwsConfig(env: Record<string, string | undefined> = process.env): AwsConfig {
  const missing: string[] = [];
  const required = (name: string): string => {
    const value = env[name];
    if (value === undefined || value.trim() === '') missing.push(name);
    return value?.trim() ?? '';
  };
  const config = {
    region: required('AWS_REGION'),
    version: required(ENV.version),
    tables: {
      tenants: required(ENV.tenantsTable),
      documents: required(ENV.documentsTable),
      usage: required(ENV.usageTable),
    },
    blobBucket: required(ENV.blobBucket),
    search: { endpoint: required(ENV.searchEndpoint), indexPrefix: required(ENV.searchIndexPrefix) },
    embedding: { modelId: required(ENV.embeddingModelId), dimensions: 0 as AwsConfig['embedding']['dimensions'] },
    chatModelId: required(ENV.chatModelId),
    ingestQueueUrl: required(ENV.ingestQueueUrl),
    inlineMaxBytes: 0,
    corsOrigins: [] as string[],
  };
  const dimensions = required(ENV.embeddingDimensions);
  const inlineMax = required(ENV.inlineMaxBytes);
  if (missing.length) throw new ConfigError(`missing environment variables: ${missing.join(', ')}`);

  if (!['256', '512', '1024'].includes(dimensions)) {
    throw new ConfigError(`${ENV.embeddingDimensions} must be 256, 512 or 1024, not "${dimensions}"`);
  }
  config.embedding.dimensions = Number(dimensions) as AwsConfig['embedding']['dimensions'];
  const inlineMaxBytes = Number(inlineMax);
  if (!Number.isInteger(inlineMaxBytes) || inlineMaxBytes < 0) {
    throw new ConfigError(`${ENV.inlineMaxBytes} must be a whole number of bytes, not "${inlineMax}"`);
  }
  config.inlineMaxBytes = inlineMaxBytes;
  try {
    config.corsOrigins = parseCorsOrigins(env[ENV.corsOrigins], ENV.corsOrigins);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (!/^https:\/\/[^/\s]+$/.test(config.search.endpoint)) {
    throw new ConfigError(`${ENV.searchEndpoint} must be https://host, not "${config.search.endpoint}"`);
  }
  return config;
}
