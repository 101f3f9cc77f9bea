import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { type Access, FULL_ACCESS } from '../lambdas/endpoints/access.js';
import { CONSOLE_ASSET_DIR } from '../lambdas/endpoints/console/build.js';
import { DOCS_ASSET_DIR, DOCS_ASSET_FILES, DOCS_ASSET_PACKAGE } from '../lambdas/endpoints/docs/assets.js';
import { ALL_ROUTES } from '../lambdas/endpoints/routes.js';
import { BUCKET_ENV, ENV, TEXTRACT_STAGING_PREFIX } from '../lambdas/wiring/aws/config.js';
import { buildConsole } from '../scripts/build-console.mjs';
import type { LibraryConfig } from './config.js';
import { CallerBucketAccess } from './constructs/caller-bucket-access.js';
import { EmbedderScale } from './constructs/embedder-scale.js';
import { IngestPipeline, WORKER_TIMEOUTS_PER_DELIVERY } from './constructs/ingest-pipeline.js';
import { LibraryApi } from './constructs/library-api.js';
import { LibraryFunction } from './constructs/library-function.js';
import { ServiceAlarms } from './constructs/service-alarms.js';
import { type DataRefs, ImportedData } from './data-refs.js';
import {
  type FunctionSpec,
  functionSpecs,
  INGEST_NODE_MODULES,
  missingEntries,
  PROJECT_ROOT,
  readerThreadOf,
} from './functions.js';

export interface ApiStackProps extends StackProps {
  readonly config: LibraryConfig;
  /** The stateful stack's exported values (StatefulStack.refs). */
  readonly data: DataRefs;
  /** The service version reported by /v1/health. */
  readonly version: string;
}

/**
 * The stateless half: one function per route (plus the authorizer, the
 * ingest worker and the sweeper), the REST API and the ingest queue. It only composes; it
 * gets the data resources by props and grants each function the access its
 * route's contract names (lib/route-access.ts for the functions that are not
 * routes).
 */
export class ApiStack extends Stack {
  readonly api: LibraryApi;
  readonly ingest: IngestPipeline;
  readonly alarms: ServiceAlarms;
  /** The dedicated role customers' bucket roles trust. */
  readonly callerBuckets: CallerBucketAccess;
  /** The deployed embedder's cosine scale, measured at deploy time. */
  readonly embedderScale: EmbedderScale;
  readonly functions = new Map<string, LibraryFunction>();
  readonly data: ImportedData;
  private readonly settings: ApiStackProps;
  /** What each function was granted. */
  private readonly granted = new Map<string, Access>();

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    this.settings = props;
    const { config } = props;
    const data = (this.data = new ImportedData(this, 'Data', props.data));
    const missing = missingEntries();
    if (missing.length) throw new Error(`routes without a Lambda entry (index.ts): ${missing.join(', ')}`);

    this.ingest = new IngestPipeline(this, 'Ingest', {
      workerTimeoutSeconds: config.ingest.timeoutSeconds,
      maxReceiveCount: config.ingest.maxReceiveCount,
      alarmEmail: config.alarms.email || undefined,
    });
    const environment: Record<string, string> = {
      [ENV.version]: props.version,
      [ENV.tenantsTable]: data.tenants.tableName,
      [ENV.documentsTable]: data.documents.tableName,
      [ENV.usageTable]: data.usage.tableName,
      [ENV.blobBucket]: data.bucket.bucketName,
      [ENV.searchEndpoint]: `https://${data.domain.domainEndpoint}`,
      [ENV.searchIndexPrefix]: config.search.indexPrefix,
      [ENV.embeddingModelId]: config.models.embeddingModelId,
      [ENV.embeddingDimensions]: String(config.models.embeddingDimensions),
      [ENV.chatModelId]: config.models.chatModelId,
      [ENV.ingestQueueUrl]: this.ingest.queue.queueUrl,
      [ENV.inlineMaxBytes]: String(config.ingest.inlineMaxBytes),
      // Read once by the wiring (lambdas/wiring/aws/config.ts); the API functions add the CORS headers from it.
      [ENV.corsOrigins]: config.cors.allowedOrigins.join(','),
    };

    for (const spec of functionSpecs()) {
      const fn = this.makeFunction(spec, environment);
      this.grant(fn, spec);
      this.functions.set(spec.name, fn);
    }
    this.callerBuckets = this.bindCallerBuckets();
    // The chat's gate reads cosines on the scale the deployed embedder was measured at (core/chat/calibration.ts).
    this.embedderScale = new EmbedderScale(this, 'EmbedderScale', {
      handler: this.functions.get('embedder-scale')!,
      modelId: config.models.embeddingModelId,
      dimensions: config.models.embeddingDimensions,
      logRetentionDays: config.logRetentionDays,
    });
    // Chat's gate and search's absolute scores read cosines on that scale (and so do the MCP tools' ask and search).
    for (const name of ['chat', 'search', 'mcp'])
      this.functions.get(name)!.fn.addEnvironment(ENV.embeddingScale, this.embedderScale.value);
    this.ingest.attachWorker(this.functions.get('ingest')!);
    this.alarms = new ServiceAlarms(this, 'Alarms', { topic: this.ingest.alarmTopic });
    new events.Rule(this, 'SweepSchedule', {
      description: 'Library: settle failed the documents left processing',
      schedule: events.Schedule.rate(Duration.minutes(15)),
      targets: [new targets.LambdaFunction(this.functions.get('sweeper')!.fn, { retryAttempts: 0 })],
    });

    this.api = new LibraryApi(this, 'Http', {
      routes: ALL_ROUTES,
      handlers: new Map(ALL_ROUTES.map((r) => [r.name, this.functions.get(r.name)!.fn])),
      authorizer: this.functions.get('authorizer')!.fn,
      stageName: config.stageName,
      throttling: config.throttling,
      authorizerCacheSeconds: config.authorizerCacheSeconds,
      logRetentionDays: config.logRetentionDays,
      corsOrigins: config.cors.allowedOrigins,
    });

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.api.url}v1/`, description: 'Base URL of the API' });
    new CfnOutput(this, 'DocsUrl', { value: `${this.api.api.url}docs`, description: 'The API reference page' });
    new CfnOutput(this, 'ConsoleUrl', {
      value: `${this.api.api.url}console`,
      description: 'The web console (sign in with an API key)',
    });
    new CfnOutput(this, 'UsagePlanId', {
      value: this.api.usagePlan.usagePlanId,
      description: 'Usage plan of the API keys (library-aws keys)',
    });
    new CfnOutput(this, 'RestApiId', { value: this.api.api.restApiId });
    new CfnOutput(this, 'TenantsTableName', { value: data.tenants.tableName });
    new CfnOutput(this, 'BucketPrincipalArn', {
      value: this.callerBuckets.role.roleArn,
      description:
        "The principal customers' bucket roles trust (GET /v1/bucket/trust-policy names it); stable for the life of this stack",
    });
    new CfnOutput(this, 'IngestDeadLetterQueueUrl', { value: this.ingest.deadLetters.queueUrl });
  }

  /**
   * Callers' buckets: the functions with a `callerBuckets` line get the
   * buckets table, the secrets key as their line says, and the variables;
   * those that reach buckets are the only ones the dedicated role trusts, and
   * may assume it.
   */
  private bindCallerBuckets(): CallerBucketAccess {
    const users = [...this.functions].filter(([name]) => this.accessOf(name).callerBuckets);
    const reaching = users.filter(([name]) => this.accessOf(name).callerBuckets!.reach).map(([, fn]) => fn);
    const access = new CallerBucketAccess(this, 'CallerBuckets', { trustedRoles: reaching.map((fn) => fn.fn.role!) });
    for (const [name, fn] of users) {
      const line = this.accessOf(name).callerBuckets!;
      fn.bindTable(this.data.buckets, line.table).bindSecretsKey(this.data.secretsKey, line);
      if (line.reach) access.grantAssume(fn.fn);
      fn.fn.addEnvironment(BUCKET_ENV.table, this.data.buckets.tableName);
      fn.fn.addEnvironment(BUCKET_ENV.accessRoleArn, access.role.roleArn);
      fn.fn.addEnvironment(BUCKET_ENV.secretsKeyArn, this.data.secretsKey.keyArn);
    }
    return access;
  }

  private makeFunction(spec: FunctionSpec, environment: Record<string, string>): LibraryFunction {
    const { config } = this.settings;
    const ingest = spec.kind === 'ingest';
    const extra: Record<string, string> = {};
    if (ingest) {
      extra[ENV.ingestMaxReceiveCount] = String(config.ingest.maxReceiveCount);
      extra[ENV.ingestConcurrency] = String(config.ingest.concurrency);
    }
    if (spec.kind === 'sweeper') extra[ENV.staleAfterSeconds] = String(staleAfterSeconds(config));
    const reader = readerThreadOf(spec);
    if (reader) extra[ENV.readerThread] = reader.file;
    return new LibraryFunction(this, fnId(spec.name), {
      entry: spec.entry,
      description: spec.route ? `Library ${spec.route.method} ${spec.route.path}` : `Library ${spec.name}`,
      memoryMiB: ingest ? config.ingest.memoryMiB : config.lambda.memoryMiB,
      timeoutSeconds: ingest
        ? config.ingest.timeoutSeconds
        : spec.kind === 'sweeper'
          ? 300
          : config.lambda.timeoutSeconds,
      logRetentionDays: config.logRetentionDays,
      environment: { ...environment, ...extra },
      nodeModules: ingest ? INGEST_NODE_MODULES : undefined,
      copyFiles:
        spec.name === 'docs' ? docsAssetCopies() : CONSOLE_FUNCTIONS.has(spec.name) ? consoleCopies() : undefined,
      extraBundles: reader ? [reader] : undefined,
    });
  }

  /** The access a function was granted: its spec's, or full access (with a synth warning, see grant) when it has none. */
  accessOf(name: string): Access {
    return this.granted.get(name) ?? FULL_ACCESS;
  }

  private grant(fn: LibraryFunction, spec: FunctionSpec): void {
    const { config } = this.settings;
    const data = this.data;
    if (!spec.access) {
      Annotations.of(fn).addWarningV2(
        'library:route-access',
        `no access for ${spec.name} (its contract's access, or its line in lib/route-access.ts): it gets full data access`,
      );
    }
    const access = spec.access ?? FULL_ACCESS;
    this.granted.set(spec.name, access);
    if (access.documents) fn.bindTable(data.documents, access.documents);
    if (access.tenants === 'lookup') fn.bindItemLookup(data.tenants);
    else if (access.tenants) fn.bindTable(data.tenants, access.tenants);
    if (access.usage) fn.bindTable(data.usage, access.usage);
    if (access.blobs) fn.bindBucket(data.bucket, access.blobs);
    if (access.search) fn.bindSearch(data.domain, access.search);
    const models = [
      ...(access.embed ? [config.models.embeddingModelId] : []),
      ...(access.chat ? [config.models.chatModelId] : []),
    ];
    if (models.length) fn.bindModels(models);
    // The chat model streams its reply when the caller asks for one (Accept: text/event-stream): on the routes that stream only.
    if (access.chat && access.chatStreams !== false) fn.bindModelStreams([config.models.chatModelId]);
    if (access.ingestQueue) fn.bindQueue(this.ingest.queue);
    if (access.textract) fn.bindTextract(data.bucket, TEXTRACT_STAGING_PREFIX);
    if (access.endUserLogKey) {
      fn.bindMacKey(data.endUserLogKey);
      fn.fn.addEnvironment(ENV.endUserLogKeyArn, data.endUserLogKey.keyArn);
    }
  }
}

/**
 * When a processing document counts as abandoned (the sweeper settles it
 * failed): after the last delivery of its ingest job could have ended (each
 * delivery hides the job for WORKER_TIMEOUTS_PER_DELIVERY worker timeouts),
 * plus an hour. Inline captures finish within seconds.
 */
const staleAfterSeconds = (config: LibraryConfig) =>
  config.ingest.timeoutSeconds * WORKER_TIMEOUTS_PER_DELIVERY * config.ingest.maxReceiveCount + 3600;

/** The docs page's renderer (swagger-ui-dist from node_modules), copied beside the docs function's bundle. */
function docsAssetCopies() {
  const folder = dirname(createRequire(import.meta.url).resolve(`${DOCS_ASSET_PACKAGE}/package.json`));
  return Object.values(DOCS_ASSET_FILES).map((file) => ({ from: join(folder, file), to: join(DOCS_ASSET_DIR, file) }));
}

/**
 * The functions that serve the web console, and the console copied beside each:
 * built from console/src at synth (once per process, into a folder of its own,
 * so a deploy never ships a stale console/dist and never races a local build).
 */
const CONSOLE_FUNCTIONS = new Set(['console', 'console-asset']);
let consoleBuild: { folder: string; files: string[] } | undefined;
function consoleCopies() {
  if (!consoleBuild) {
    // Inside the project: bundling in a container sees the project folder only (.cache is ignored by git).
    mkdirSync(join(PROJECT_ROOT, '.cache'), { recursive: true });
    const folder = mkdtempSync(join(PROJECT_ROOT, '.cache', 'console-'));
    consoleBuild = { folder, files: buildConsole(folder).files };
    // Bundling copies it during synth, in this process; then it has served.
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  const { folder, files } = consoleBuild;
  return ['manifest.json', ...files].map((file) => ({ from: join(folder, file), to: join(CONSOLE_ASSET_DIR, file) }));
}

/** Construct ids from route names: `end-user-delete` → `EndUserDeleteFunction`. */
const fnId = (name: string) => `${name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Function`;
