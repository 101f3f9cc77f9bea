import { dirname, join, relative } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Charset, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../lambdas/wiring/aws/metric-names.js';
import { BUNDLE_SETTINGS, extraBundleCommand, shellQuote } from '../bundling.js';
import { PROJECT_ROOT } from '../functions.js';

export interface LibraryFunctionProps {
  readonly entry: string;
  readonly description: string;
  readonly memoryMiB: number;
  readonly timeoutSeconds: number;
  readonly logRetentionDays: number;
  readonly environment: Record<string, string>;
  /** Packages installed beside the bundle instead of bundled (native code), for Linux on ARM64. */
  readonly nodeModules?: readonly string[];
  /** Files copied beside the bundle after esbuild ran: `from` an absolute path, `to` a path inside the bundle's folder. */
  readonly copyFiles?: readonly { readonly from: string; readonly to: string }[];
  /** More entries bundled beside the function's own with the same settings (a worker thread's script): `entry` absolute, `file` a name in the bundle's folder. */
  readonly extraBundles?: readonly { readonly entry: string; readonly file: string }[];
}

/**
 * The one way this service makes a Lambda function: Node.js 22 on ARM64,
 * bundled by esbuild (ESM, minified, source maps), X-Ray active tracing,
 * Powertools settings (service, metrics namespace, log level), structured
 * JSON logs in a log group with a retention (metrics travel in it as EMF).
 * Access is granted through the bind* methods, each naming exactly the
 * actions that function needs on exactly one resource.
 */
export class LibraryFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: LibraryFunctionProps) {
    super(scope, id);
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const nodeModules = props.nodeModules ? [...props.nodeModules] : undefined;
    // Its own role: no managed policy; logs only into its own log group.
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    this.fn = new NodejsFunction(this, 'Function', {
      role,
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMiB,
      timeout: Duration.seconds(props.timeoutSeconds),
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        minify: BUNDLE_SETTINGS.minify,
        sourceMap: BUNDLE_SETTINGS.sourceMap,
        sourcesContent: BUNDLE_SETTINGS.sourcesContent,
        target: BUNDLE_SETTINGS.target,
        mainFields: [...BUNDLE_SETTINGS.mainFields],
        charset: BUNDLE_SETTINGS.charset === 'utf8' ? Charset.UTF8 : Charset.ASCII,
        banner: BUNDLE_SETTINGS.banner,
        bundleAwsSDK: BUNDLE_SETTINGS.bundleAwsSDK,
        externalModules: [...BUNDLE_SETTINGS.externalModules],
        nodeModules,
        commandHooks:
          props.copyFiles?.length || props.extraBundles?.length
            ? afterBundlingHooks(props.copyFiles ?? [], props.extraBundles ?? [], nodeModules ?? [])
            : undefined,
        // Native packages are installed for the Lambda platform, whatever machine synthesizes.
        environment: nodeModules
          ? {
              npm_config_os: 'linux',
              npm_config_cpu: 'arm64',
              npm_config_libc: 'glibc',
              npm_config_prefer_offline: 'true',
            }
          : undefined,
      },
    });
  }

  bindTable(table: dynamodb.ITable, access: 'read' | 'write'): this {
    if (access === 'read') table.grantReadData(this.fn);
    else table.grantReadWriteData(this.fn);
    return this;
  }

  /** kms:GenerateMac with HMAC-SHA-256 on one HMAC key (the end-user log key): no verify, no other key or algorithm. */
  bindMacKey(key: kms.IKey): this {
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:GenerateMac'],
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:MacAlgorithm': 'HMAC_SHA_256' } },
      }),
    );
    return this;
  }

  /** dynamodb:GetItem on the table alone: reads one item by its key, no query, scan or index. */
  bindItemLookup(table: dynamodb.ITable): this {
    this.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [table.tableArn] }));
    return this;
  }

  /** Object actions on the blob keys only (`blobs/...`), each named: no wildcard action. */
  bindBucket(bucket: s3.IBucket, access: { read?: boolean; put?: boolean; delete?: boolean }): this {
    const actions = [
      ...(access.read ? ['s3:GetObject'] : []),
      ...(access.put ? ['s3:PutObject'] : []),
      ...(access.delete ? ['s3:DeleteObject'] : []),
    ];
    if (actions.length)
      this.fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [bucket.arnForObjects('blobs/*')] }));
    return this;
  }

  /** HTTP verbs on the domain's indices: reads search (GET/HEAD/POST _search); writes also index, create and delete. */
  bindSearch(domain: opensearch.IDomain, access: 'read' | 'write'): this {
    const actions =
      access === 'read'
        ? ['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost']
        : ['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost', 'es:ESHttpPut', 'es:ESHttpDelete'];
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({ actions, resources: [domain.domainArn, `${domain.domainArn}/*`] }),
    );
    return this;
  }

  /** bedrock:InvokeModel (which Converse also needs) on the named models only. */
  bindModels(modelIds: readonly string[]): this {
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: modelIds.flatMap((id) => bedrockModelArns(this, id)),
      }),
    );
    return this;
  }

  /** bedrock:InvokeModelWithResponseStream (ConverseStream: a chat reply streamed as it is written) on the named models only. */
  bindModelStreams(modelIds: readonly string[]): this {
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModelWithResponseStream'],
        resources: modelIds.flatMap((id) => bedrockModelArns(this, id)),
      }),
    );
    return this;
  }

  /**
   * The secrets key, for sealing (kms:Encrypt) or opening (kms:Decrypt)
   * callers' secret keys: only with an encryption context that is exactly
   * `{tenant_id}`, the one the KMS secret cipher passes.
   */
  bindSecretsKey(key: kms.IKey, uses: { seal?: boolean; open?: boolean }): this {
    const actions = [...(uses.seal ? ['kms:Encrypt'] : []), ...(uses.open ? ['kms:Decrypt'] : [])];
    if (!actions.length) return this;
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions,
        resources: [key.keyArn],
        conditions: {
          'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['tenant_id'] },
          Null: { 'kms:EncryptionContext:tenant_id': 'false' },
        },
      }),
    );
    return this;
  }

  bindQueue(queue: sqs.IQueue): this {
    queue.grantSendMessages(this.fn);
    return this;
  }

  /**
   * Textract's text detection (no resource-level permissions, so the resource
   * is `*`), and the staging of whole PDFs for its asynchronous job: put and
   * delete the copy under `stagingPrefix` in the bucket, and get it, since
   * Textract reads the object with the caller's credentials.
   */
  bindTextract(stagingBucket: s3.IBucket, stagingPrefix: string): this {
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          'textract:DetectDocumentText',
          'textract:StartDocumentTextDetection',
          'textract:GetDocumentTextDetection',
        ],
        resources: ['*'],
      }),
    );
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        resources: [stagingBucket.arnForObjects(`${stagingPrefix}*`)],
      }),
    );
    return this;
  }
}

/**
 * Bundling hooks that run once esbuild has written the function's bundle:
 * copy files into its folder (the docs function's renderer), and bundle
 * other entries beside it with the same settings (lib/bundling.ts
 * `extraBundleCommand`: the reader thread of the functions that read files).
 * The commands run on the machine that synthesizes (or in the bundling
 * container, where the project is mounted at the same relative place).
 */
function afterBundlingHooks(
  files: readonly { from: string; to: string }[],
  bundles: readonly { entry: string; file: string }[],
  installed: readonly string[],
) {
  const inProject = (inputDir: string, path: string) =>
    path.startsWith(PROJECT_ROOT) ? join(inputDir, relative(PROJECT_ROOT, path)) : path;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      ...files.map(({ from, to }) => {
        const target = join(outputDir, to);
        return `mkdir -p ${shellQuote(dirname(target))} && cp ${shellQuote(inProject(inputDir, from))} ${shellQuote(target)}`;
      }),
      ...bundles.map(({ entry, file }) =>
        extraBundleCommand({
          esbuild: join(inputDir, 'node_modules', '.bin', 'esbuild'),
          entry: inProject(inputDir, entry),
          outfile: join(outputDir, file),
          installed,
        }),
      ),
    ],
  };
}

/**
 * ARNs a model id needs: a foundation model in this region; or, for a
 * cross-region inference profile (`us.`, `eu.`, `apac.`, `global.`), the
 * profile and its foundation model in the regions it routes to.
 */
export function bedrockModelArns(scope: Construct, modelId: string): string[] {
  const stack = Stack.of(scope);
  const profile = /^(us|eu|apac|us-gov|global)\.(.+)$/.exec(modelId);
  if (!profile) return [`arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${modelId}`];
  return [
    `arn:${stack.partition}:bedrock:${stack.region}:${stack.account}:inference-profile/${modelId}`,
    `arn:${stack.partition}:bedrock:*::foundation-model/${profile[2]}`,
  ];
}
