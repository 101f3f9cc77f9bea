import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES, ROUTES } from '../../lambdas/endpoints/routes.js';
import { BUCKET_ENV, ENV } from '../../lambdas/wiring/aws/config.js';
import { METRIC, METRICS_NAMESPACE, REJECT_CODE_DIMENSION } from '../../lambdas/wiring/aws/metric-names.js';
import type { ApiStack } from '../../lib/api-stack.js';
import { buildApp } from '../../lib/app.js';
import { DEFAULT_CONFIG, resolveConfig } from '../../lib/config.js';
import { WORKER_TIMEOUTS_PER_DELIVERY } from '../../lib/constructs/ingest-pipeline.js';
import { BEARER_KEY_PATTERN } from '../../lib/constructs/library-api.js';
import { functionSpecs, missingEntries } from '../../lib/functions.js';
import type { StatefulStack } from '../../lib/stateful-stack.js';

/**
 * CDK assertions on the synthesized templates. Bundling is skipped (the
 * `aws:cdk:bundling-stacks` context CDK itself uses for that), so the whole
 * file runs in seconds; `npm run bench:bundles` and `npx cdk synth` bundle.
 */
const ENVIRONMENT = { account: '123456789012', region: 'eu-west-1' };

function synth(config: Record<string, unknown> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const built = buildApp(app, { config: { ...ENVIRONMENT, ...config }, version: '9.9.9' });
  return { app, ...built, dataTemplate: Template.fromStack(built.data), apiTemplate: Template.fromStack(built.api) };
}

let app: App;
let data: StatefulStack;
let api: ApiStack;
let dataTemplate: Template;
let apiTemplate: Template;

beforeAll(() => {
  ({ app, data, api, dataTemplate, apiTemplate } = synth());
});

/** The service's own functions (LibraryFunction), not the provider framework CDK adds around the embedder-scale custom resource. */
function serviceFunctions(template: Template): Array<{ Properties: Record<string, any> }> {
  return (
    Object.values(template.findResources('AWS::Lambda::Function')) as Array<{ Properties: Record<string, any> }>
  ).filter((fn) => String(fn.Properties.Description ?? '').startsWith('Library '));
}

const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);

/** Every IAM statement attached to one function's role. */
function statementsOf(name: string): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  const fn = api.functions.get(name)!;
  const roleId = api.getLogicalId(fn.fn.role!.node.defaultChild as never);
  const policies = apiTemplate.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap(
    (p) => (p as { Properties: { PolicyDocument: { Statement: never[] } } }).Properties.PolicyDocument.Statement,
  );
}
const actionsOf = (name: string) =>
  new Set(statementsOf(name).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])));
const importName = (name: string) => `${data.stackName}-${name}`;
const resourcesFor = (name: string, action: string) =>
  JSON.stringify(
    statementsOf(name)
      .filter((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).includes(action))
      .map((s) => s.Resource),
  );

describe('routes and functions', () => {
  it('has a Lambda entry for every route of the route table', () => {
    expect(missingEntries()).toEqual([]);
  });

  it('makes one function per route and page, plus the authorizer, the ingest worker, the sweeper and the embedder scale, all on Node.js 22 ARM64 with X-Ray', () => {
    const functions = serviceFunctions(apiTemplate);
    expect(functions).toHaveLength(ALL_ROUTES.length + 4);
    // And the one function of CDK's custom-resource provider framework.
    apiTemplate.resourceCountIs('AWS::Lambda::Function', ALL_ROUTES.length + 5);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON' },
      });
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
        // The function-specific ones are checked with their functions (the end-user log key: below).
        expect.arrayContaining(
          Object.values(ENV).filter(
            (v) =>
              ![
                ENV.ingestMaxReceiveCount,
                ENV.ingestConcurrency,
                ENV.staleAfterSeconds,
                ENV.endUserLogKeyArn,
                ENV.readerThread,
                ENV.embeddingScale,
              ].includes(v as never),
          ),
        ),
      );
      expect(fn.Properties.Environment.Variables[ENV.version]).toBe('9.9.9');
    }
    // One per function, the API's access log, the provider framework's.
    apiTemplate.resourceCountIs('AWS::Logs::LogGroup', ALL_ROUTES.length + 4 + 1 + 1);
    apiTemplate.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: DEFAULT_CONFIG.logRetentionDays });
  });

  it('maps each route to one API Gateway method on its own function, keyed routes behind the authorizer and the usage plan', () => {
    const restApi = api.api.api;
    for (const route of ALL_ROUTES) {
      const method = restApi.methods.find((m) => m.resource.path === route.path && m.httpMethod === route.method);
      expect(method, `${route.method} ${route.path}`).toBeDefined();
      const fnId = api.getLogicalId(api.functions.get(route.name)!.fn.node.defaultChild as never);
      apiTemplate.hasResource('AWS::ApiGateway::Method', {
        Properties: Match.objectLike({
          HttpMethod: route.method,
          ResourceId: { Ref: api.getLogicalId(method!.resource.node.defaultChild as never) },
          AuthorizationType: route.auth ? 'CUSTOM' : 'NONE',
          ...(route.auth ? { ApiKeyRequired: true } : {}),
          Integration: Match.objectLike({
            Type: 'AWS_PROXY',
            Uri: { 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [fnId, 'Arn'] }])] },
          }),
        }),
      });
    }
  });

  it('streams the routes that may stream (POST /v1/chat): response transfer mode STREAM, invoked with InvokeWithResponseStream; every other route buffers', () => {
    const resources = apiTemplate.toJSON().Resources as Record<string, { Properties: Record<string, any> }>;
    const streaming = ALL_ROUTES.filter((r) => r.streaming).map((r) => r.name);
    expect(streaming).toEqual(['chat']);
    for (const route of ALL_ROUTES) {
      const method = api.api.api.methods.find((m) => m.resource.path === route.path && m.httpMethod === route.method)!;
      const integration = resources[api.getLogicalId(method.node.defaultChild as never)]!.Properties.Integration;
      const uri = JSON.stringify(integration.Uri);
      if (route.streaming) {
        expect(integration, route.name).toMatchObject({
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          ResponseTransferMode: 'STREAM',
        });
        expect(uri).toContain('/2021-11-15/functions/');
        expect(uri).toContain('/response-streaming-invocations');
      } else {
        expect(integration.ResponseTransferMode, route.name).toBeUndefined();
        expect(uri, route.name).toContain('/invocations');
        expect(uri, route.name).not.toContain('response-streaming');
      }
    }
    // The chat function keeps the settings of every API function, and API Gateway may invoke it (lambda:InvokeFunction covers the streaming invoke).
    const chat = resources[api.getLogicalId(api.functions.get('chat')!.fn.node.defaultChild as never)]!.Properties;
    const search = resources[api.getLogicalId(api.functions.get('search')!.fn.node.defaultChild as never)]!.Properties;
    expect({
      Timeout: chat.Timeout,
      MemorySize: chat.MemorySize,
      Runtime: chat.Runtime,
      Handler: chat.Handler,
    }).toEqual({
      Timeout: search.Timeout,
      MemorySize: search.MemorySize,
      Runtime: search.Runtime,
      Handler: search.Handler,
    });
    const chatFn = api.getLogicalId(api.functions.get('chat')!.fn.node.defaultChild as never);
    const permissions = Object.values(apiTemplate.findResources('AWS::Lambda::Permission')).map(
      (p) => (p as { Properties: Record<string, any> }).Properties,
    );
    expect(
      permissions.some(
        (p) =>
          p.Action === 'lambda:InvokeFunction' &&
          p.Principal === 'apigateway.amazonaws.com' &&
          JSON.stringify(p.FunctionName).includes(chatFn),
      ),
    ).toBe(true);
  });

  it('answers other methods on a known path with a 405 mock carrying Allow', () => {
    const paths = new Set(ALL_ROUTES.map((r) => r.path));
    const anys = api.api.api.methods.filter((m) => m.httpMethod === 'ANY');
    expect(new Set(anys.map((m) => m.resource.path))).toEqual(paths);
    apiTemplate.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'ANY',
      Integration: Match.objectLike({
        Type: 'MOCK',
        IntegrationResponses: [
          Match.objectLike({
            StatusCode: '405',
            ResponseParameters: { 'method.response.header.Allow': "'GET, PATCH, DELETE'" },
          }),
        ],
      }),
    });
  });

  it('gives every function an explicit access line (no function falls back to full access)', () => {
    const specs = functionSpecs();
    expect(specs.map((s) => s.name).sort()).toEqual([...api.functions.keys()].sort());
    for (const spec of specs) expect(spec.access, spec.name).toBeDefined();
  });
});

describe('authorizer, usage plan and gateway responses', () => {
  it('uses a TOKEN authorizer on the Authorization header, checking the key shape before any call', () => {
    apiTemplate.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    apiTemplate.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
      IdentityValidationExpression: BEARER_KEY_PATTERN,
      AuthorizerResultTtlInSeconds: DEFAULT_CONFIG.authorizerCacheSeconds,
    });
    expect(new RegExp(BEARER_KEY_PATTERN).test(`Bearer lib_${'a'.repeat(40)}`)).toBe(true);
    expect(new RegExp(BEARER_KEY_PATTERN).test(`bearer lib_${'a'.repeat(40)}`)).toBe(true);
    expect(new RegExp(BEARER_KEY_PATTERN).test('Bearer nope')).toBe(false);
  });

  it('takes API keys from the authorizer and throttles each key by the usage plan', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'AUTHORIZER',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    apiTemplate.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 20, BurstLimit: 40 },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
    });
    apiTemplate.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it.each([
    ['UNAUTHORIZED', '401', 'unauthorized'],
    ['ACCESS_DENIED', '401', 'unauthorized'],
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'not_found'],
    ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
    ['UNSUPPORTED_MEDIA_TYPE', '415', 'unsupported_media_type'],
    ['THROTTLED', '429', 'rate_limited'],
    ['QUOTA_EXCEEDED', '429', 'rate_limited'],
    ['AUTHORIZER_FAILURE', '503', 'unavailable'],
    ['INTEGRATION_TIMEOUT', '503', 'unavailable'],
    ['DEFAULT_5XX', '500', 'internal_error'],
  ])('rewrites the %s gateway response to %s %s in the contract body', (type, status, code) => {
    const responses = apiTemplate.findResources('AWS::ApiGateway::GatewayResponse', {
      Properties: { ResponseType: type },
    });
    const [response] = Object.values(responses) as Array<{ Properties: Record<string, any> }>;
    expect(response, type).toBeDefined();
    expect(response!.Properties.StatusCode).toBe(status);
    const body = response!.Properties.ResponseTemplates['application/json'] as string;
    expect(body).toContain(`"code":"${code}"`);
    expect(body).toContain('"request_id":"$context.requestId"');
    // The template is valid JSON once API Gateway substitutes its variables.
    expect(() =>
      JSON.parse(body.replace('$context.requestId', 'req').replace('$context.error.messageString', '"m"')),
    ).not.toThrow();
    if (status === '429' || status === '503') {
      expect(response!.Properties.ResponseParameters['gatewayresponse.header.Retry-After']).toMatch(/^'\d+'$/);
      expect(JSON.parse(body.replace('$context.requestId', 'req')).error.retry_after).toBeGreaterThan(0);
    }
  });

  it('keeps the status API Gateway chose for other 4XX, with the contract body', () => {
    apiTemplate.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'DEFAULT_4XX',
      StatusCode: Match.absent(),
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"message":\\$context.error.messageString') },
    });
  });
});

describe('stateful resources', () => {
  it('pins the logical ids of every stateful resource and retains them by default', () => {
    for (const [id, type] of [
      ['TenantsTable', 'AWS::DynamoDB::Table'],
      ['DocumentsTable', 'AWS::DynamoDB::Table'],
      ['UsageTable', 'AWS::DynamoDB::Table'],
      ['BucketsTable', 'AWS::DynamoDB::Table'],
      ['BlobBucket', 'AWS::S3::Bucket'],
      ['BlobAccessLogsBucket', 'AWS::S3::Bucket'],
      ['SearchDomain', 'AWS::OpenSearchService::Domain'],
      ['BucketSecretsKey', 'AWS::KMS::Key'],
      ['EndUserLogKey', 'AWS::KMS::Key'],
    ] as const) {
      const resource = dataTemplate.toJSON().Resources[id];
      expect(resource?.Type, id).toBe(type);
      expect(resource.DeletionPolicy, id).toBe('Retain');
    }
  });

  it('keeps erased records restorable only for the configured point-in-time recovery window', () => {
    dataTemplate.allResourcesProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 },
    });
    const short = synth({ erasure: { pitrRecoveryDays: 7 } });
    short.dataTemplate.allResourcesProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
    });
    expect(() => resolveConfig({ erasure: { pitrRecoveryDays: 36 } })).toThrow(/erasure.pitrRecoveryDays/);
  });

  it('makes the tables on demand, with point-in-time recovery, encryption and deletion protection', () => {
    dataTemplate.resourceCountIs('AWS::DynamoDB::Table', 4);
    dataTemplate.allResourcesProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
    dataTemplate.hasResourceProperties('AWS::DynamoDB::Table', {
      LocalSecondaryIndexes: [Match.objectLike({ IndexName: 'newest' })],
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'processing' })],
    });
    // The documents table expires the library references job bodies name (their time to live outlasts the dead-letter queue's 14 days).
    const resources = dataTemplate.toJSON().Resources;
    expect(resources.DocumentsTable.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAt',
      Enabled: true,
    });
    for (const id of ['TenantsTable', 'UsageTable', 'BucketsTable'])
      expect(resources[id].Properties.TimeToLiveSpecification, id).toBeUndefined();
  });

  it('keeps the blob bucket private, encrypted, TLS-only, logged and unversioned', () => {
    dataTemplate.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'blobs/' }),
      VersioningConfiguration: Match.absent(),
    });
    // A PDF staged for Textract that the ingest function could not delete goes within a day.
    expect(dataTemplate.toJSON().Resources.BlobBucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: 'textract-staging/', ExpirationInDays: 1, Status: 'Enabled' }),
    );
    dataTemplate.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: 'BlobBucket' },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('encrypts the search domain at rest and in transit, HTTPS only, sized by config, reached by IAM', () => {
    dataTemplate.hasResourceProperties('AWS::OpenSearchService::Domain', {
      EngineVersion: 'OpenSearch_2.19',
      EncryptionAtRestOptions: { Enabled: true },
      NodeToNodeEncryptionOptions: { Enabled: true },
      DomainEndpointOptions: { EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07' },
      ClusterConfig: Match.objectLike({ InstanceType: 't3.small.search', InstanceCount: 1 }),
      AccessPolicies: { Statement: [Match.objectLike({ Principal: { AWS: Match.anyValue() }, Action: 'es:ESHttp*' })] },
    });
    const bigger = synth({ search: { instanceType: 'r7g.large.search', instanceCount: 2, zoneAwareness: true } });
    bigger.dataTemplate.hasResourceProperties('AWS::OpenSearchService::Domain', {
      ClusterConfig: Match.objectLike({
        InstanceType: 'r7g.large.search',
        InstanceCount: 2,
        ZoneAwarenessEnabled: true,
      }),
    });
  });

  it('publishes slow logs through a plain log resource policy that exists before the domain', () => {
    const domain = dataTemplate.toJSON().Resources.SearchDomain;
    const policyId = Object.keys(dataTemplate.findResources('AWS::Logs::ResourcePolicy'))[0]!;
    expect(domain.DependsOn).toContain(policyId);
    expect(domain.Properties.LogPublishingOptions).toMatchObject({
      SEARCH_SLOW_LOGS: { Enabled: true },
      INDEX_SLOW_LOGS: { Enabled: true },
    });
    dataTemplate.resourceCountIs('AWS::Lambda::Function', 0);
  });

  it('rotates the caller-bucket secrets key', () => {
    dataTemplate.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });
});

describe('ingest queue', () => {
  it('sends failed jobs to a dead-letter queue and feeds the ingest function with partial batch failures', () => {
    const queueId = logicalId(api, api.ingest.queue);
    const dlqId = logicalId(api, api.ingest.deadLetters);
    // AWS advises a visibility timeout of at least six times the function's timeout for a Lambda event source.
    expect(WORKER_TIMEOUTS_PER_DELIVERY).toBeGreaterThanOrEqual(6);
    apiTemplate.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      VisibilityTimeout: DEFAULT_CONFIG.ingest.timeoutSeconds * WORKER_TIMEOUTS_PER_DELIVERY,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
        maxReceiveCount: DEFAULT_CONFIG.ingest.maxReceiveCount,
      },
    });
    apiTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalId(api, api.functions.get('ingest')!.fn) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 1,
    });
    apiTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      MetricName: 'ApproximateNumberOfMessagesVisible',
    });
    const ingestId = logicalId(api, api.functions.get('ingest')!.fn);
    const ingestVariables = apiTemplate.toJSON().Resources[ingestId].Properties.Environment.Variables;
    expect(ingestVariables).toMatchObject({
      [ENV.ingestMaxReceiveCount]: String(DEFAULT_CONFIG.ingest.maxReceiveCount),
      [ENV.ingestConcurrency]: String(DEFAULT_CONFIG.ingest.concurrency),
    });
    // Only the ingest function is told its concurrency.
    for (const [name, fn] of api.functions) {
      if (name === 'ingest') continue;
      expect(
        apiTemplate.toJSON().Resources[logicalId(api, fn.fn)].Properties.Environment.Variables[ENV.ingestConcurrency],
        name,
      ).toBeUndefined();
    }
    const fewer = synth({ ingest: { concurrency: 2 } });
    fewer.apiTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ [ENV.ingestConcurrency]: '2' }) },
    });
  });

  it('lets capture, capture-batch and mcp (its remember tool) send to the ingest queue (the batch queues every item), and no other function', () => {
    const queueArn = JSON.stringify({ 'Fn::GetAtt': [logicalId(api, api.ingest.queue), 'Arn'] });
    for (const name of ['capture', 'capture-batch', 'mcp']) {
      expect(actionsOf(name).has('sqs:SendMessage'), name).toBe(true);
      expect(resourcesFor(name, 'sqs:SendMessage'), name).toContain(queueArn);
      const env =
        apiTemplate.toJSON().Resources[logicalId(api, api.functions.get(name)!.fn)].Properties.Environment.Variables;
      expect(env[ENV.ingestQueueUrl], name).toEqual({ Ref: logicalId(api, api.ingest.queue) });
    }
    for (const [name] of api.functions) {
      if (!['capture', 'capture-batch', 'mcp'].includes(name))
        expect(actionsOf(name).has('sqs:SendMessage'), name).toBe(false);
    }
  });

  it('gives the ingest function all it uses: read the bytes, update documents, write the index, embed, charge', () => {
    const actions = actionsOf('ingest');
    for (const a of [
      's3:GetObject',
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
      'es:ESHttpGet',
      'es:ESHttpPost',
      'es:ESHttpPut',
      'bedrock:InvokeModel',
    ]) {
      expect(actions.has(a), a).toBe(true);
    }
    expect(resourcesFor('ingest', 'dynamodb:UpdateItem')).toContain(importName('UsageTableArn'));
    expect(resourcesFor('ingest', 'bedrock:InvokeModel')).toContain(
      `foundation-model/${DEFAULT_CONFIG.models.embeddingModelId}`,
    );
  });
});

describe('alarms', () => {
  it('sends the dead-letter alarm to an SNS topic under its own rotating key, which CloudWatch may use', () => {
    const topicId = logicalId(api, api.ingest.alarmTopic);
    apiTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      AlarmActions: [{ Ref: topicId }],
    });
    const keyId = Object.keys(
      apiTemplate.findResources('AWS::KMS::Key', { Properties: { Description: 'Library: alarm topic encryption' } }),
    )[0]!;
    apiTemplate.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    apiTemplate.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Effect: 'Allow',
          }),
        ]),
      },
    });
    apiTemplate.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    apiTemplate.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('subscribes the configured email address, and refuses one that is not an address', () => {
    const { apiTemplate: withEmail, api: stack } = synth({ alarms: { email: 'ops@example.com' } });
    withEmail.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: logicalId(stack, stack.ingest.alarmTopic) },
    });
    expect(() => resolveConfig({ alarms: { email: 'not an address' } })).toThrow(/alarms.email/);
  });
});

describe('metrics and their alarms', () => {
  it('tells every function the metrics namespace and service its Powertools Metrics emit under', () => {
    for (const [name, fn] of api.functions) {
      const variables = apiTemplate.toJSON().Resources[logicalId(api, fn.fn)].Properties.Environment.Variables;
      expect(variables, name).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_SERVICE_NAME: 'library',
      });
    }
  });

  it('alarms on the failure metrics (captures refused backend_unavailable, indexing given up, abandoned documents) into the alarm topic', () => {
    const topic = [{ Ref: logicalId(api, api.ingest.alarmTopic) }];
    const common = {
      Namespace: METRICS_NAMESPACE,
      Statistic: 'Sum',
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      EvaluationPeriods: 1,
      AlarmActions: topic,
    };
    apiTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      ...common,
      MetricName: METRIC.captureRejections,
      Threshold: 5,
      Period: 300,
      // CloudWatch matches dimensions as a set; CDK writes them sorted by name.
      Dimensions: [
        { Name: REJECT_CODE_DIMENSION, Value: 'backend_unavailable' },
        { Name: 'service', Value: 'library' },
      ],
    });
    apiTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      ...common,
      MetricName: METRIC.ingestGaveUp,
      Threshold: 1,
      Period: 300,
      Dimensions: [{ Name: 'service', Value: 'library' }],
    });
    apiTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      ...common,
      MetricName: METRIC.documentsAbandoned,
      Threshold: 1,
      Period: 900,
      Dimensions: [{ Name: 'service', Value: 'library' }],
    });
    // The dead-letter alarm, and these three.
    apiTemplate.resourceCountIs('AWS::CloudWatch::Alarm', 4);
  });
});

describe('sweeper', () => {
  it('runs every 15 minutes and settles failed only what outlived every ingest retry, keeping its bytes', () => {
    const sweeperId = logicalId(api, api.functions.get('sweeper')!.fn);
    apiTemplate.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(15 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperId, 'Arn'] } })],
    });
    const stale =
      DEFAULT_CONFIG.ingest.timeoutSeconds * WORKER_TIMEOUTS_PER_DELIVERY * DEFAULT_CONFIG.ingest.maxReceiveCount +
      3600;
    apiTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ [ENV.staleAfterSeconds]: String(stale) }) },
    });
    const actions = actionsOf('sweeper');
    // Settles the record and removes its index entries; the bytes stay with the failed record.
    for (const a of ['dynamodb:Query', 'dynamodb:UpdateItem', 'es:ESHttpPost']) expect(actions.has(a), a).toBe(true);
    expect([...actions].filter((a) => /^(s3|bedrock|sqs|textract):/.test(a))).toEqual([]);
  });
});

describe('least privilege per function', () => {
  const data = (actions: Set<string>) => [...actions].filter((a) => /^(dynamodb|s3|es|bedrock|sqs|textract):/.test(a));

  it('lets the public routes touch no data, but health look up a key it is sent, one item of the tenants table', () => {
    expect(data(actionsOf('openapi'))).toEqual([]);
    expect(data(actionsOf('docs'))).toEqual([]);
    // No query, scan or write: a key's hash to its tenant, by the item's key.
    expect(data(actionsOf('health'))).toEqual(['dynamodb:GetItem']);
    const lookup = statementsOf('health').filter((s) => [s.Action].flat().includes('dynamodb:GetItem'));
    expect(lookup).toHaveLength(1);
    expect(JSON.stringify(lookup[0]!.Resource)).toContain(importName('TenantsTableArn'));
    expect(JSON.stringify(lookup[0]!.Resource)).not.toMatch(/index|DocumentsTableArn|\*/);
  });

  it('lets the authorizer only read the tenants table', () => {
    const actions = data(actionsOf('authorizer'));
    expect(actions.every((a) => a.startsWith('dynamodb:') && !/Put|Update|Delete|Write/.test(a))).toBe(true);
    expect(resourcesFor('authorizer', 'dynamodb:GetItem')).toContain(importName('TenantsTableArn'));
    expect(resourcesFor('authorizer', 'dynamodb:GetItem')).not.toContain(importName('DocumentsTableArn'));
  });

  it('lets document reads read only the documents table', () => {
    for (const name of ['documents-list', 'document-get', 'end-users-list']) {
      const actions = data(actionsOf(name));
      expect(actions.length, name).toBeGreaterThan(0);
      expect(
        actions.every((a) => a.startsWith('dynamodb:') && !/Put|Update|Delete|Write/.test(a)),
        name,
      ).toBe(true);
    }
  });

  it('lets search read the index with GET/HEAD/POST only, embed with the embedding model only, and write only the usage table', () => {
    const actions = actionsOf('search');
    const notDynamo = (actions: Set<string>) =>
      data(actions)
        .filter((a) => !a.startsWith('dynamodb:'))
        .sort();
    expect(notDynamo(actions)).toEqual(['bedrock:InvokeModel', 'es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost']);
    expect(resourcesFor('search', 'bedrock:InvokeModel')).toContain(
      `foundation-model/${DEFAULT_CONFIG.models.embeddingModelId}`,
    );
    expect(resourcesFor('search', 'bedrock:InvokeModel')).not.toContain(DEFAULT_CONFIG.models.chatModelId);
    expect(notDynamo(actionsOf('grep'))).toEqual(['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost']);
    // The library's live generation: a read of the documents table, never a write (docs/api-notes.md, "Erasure").
    const writes = (name: string) =>
      data(actionsOf(name)).filter((a) => a.startsWith('dynamodb:') && /Put|Update|Delete|Write/.test(a));
    for (const name of ['search', 'grep']) {
      expect(actionsOf(name).has('dynamodb:GetItem'), name).toBe(true);
      expect(resourcesFor(name, 'dynamodb:GetItem'), name).toContain(importName('DocumentsTableArn'));
    }
    expect(writes('grep')).toEqual([]);
    // A search's query embedding is spend: search writes the usage table, and no other.
    for (const action of writes('search')) {
      expect(resourcesFor('search', action), action).toContain(importName('UsageTableArn'));
      expect(resourcesFor('search', action), action).not.toContain(importName('DocumentsTableArn'));
    }
    expect(writes('search')).toContain('dynamodb:UpdateItem');
  });

  it('lets capture write documents, put and delete blob objects, index, embed and enqueue, but not read blobs', () => {
    const actions = actionsOf('capture');
    for (const a of [
      'dynamodb:PutItem',
      's3:PutObject',
      's3:DeleteObject',
      'es:ESHttpPut',
      'bedrock:InvokeModel',
      'sqs:SendMessage',
    ])
      expect(actions.has(a), a).toBe(true);
    expect(actions.has('s3:GetObject')).toBe(false);
    expect(resourcesFor('capture', 's3:PutObject')).toContain('/blobs/*');
    expect([...actions].some((a) => a.startsWith('textract:'))).toBe(false);
  });

  it('gives the chat model only to chat and mcp (its ask tool; streaming only to chat), and Textract only to the ingest function', () => {
    expect(resourcesFor('chat', 'bedrock:InvokeModel')).toContain(DEFAULT_CONFIG.models.chatModelId);
    // ConverseStream, for a reply streamed as it is written: the chat model only, on the chat function only.
    expect(resourcesFor('chat', 'bedrock:InvokeModelWithResponseStream')).toContain(DEFAULT_CONFIG.models.chatModelId);
    expect(resourcesFor('chat', 'bedrock:InvokeModelWithResponseStream')).not.toContain(
      DEFAULT_CONFIG.models.embeddingModelId,
    );
    for (const name of api.functions.keys())
      if (name !== 'chat') expect(actionsOf(name).has('bedrock:InvokeModelWithResponseStream'), name).toBe(false);
    for (const [name] of api.functions) {
      const hasTextract = [...actionsOf(name)].some((a) => a.startsWith('textract:'));
      expect(hasTextract, name).toBe(name === 'ingest');
      if (name !== 'chat' && name !== 'mcp')
        expect(resourcesFor(name, 'bedrock:InvokeModel'), name).not.toContain(DEFAULT_CONFIG.models.chatModelId);
    }
    expect(actionsOf('ingest').has('sqs:SendMessage')).toBe(false);
  });

  it('lets the ingest function read blobs, and get, put and delete only its Textract staging copies', () => {
    const staging = `${importName('BlobBucketArn')}"},"/textract-staging/*`;
    const blobs = `${importName('BlobBucketArn')}"},"/blobs/*`;
    const s3 = statementsOf('ingest').filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
    const onStaging = s3.filter((s) => JSON.stringify(s.Resource).includes(staging));
    expect(onStaging).toHaveLength(1);
    expect([onStaging[0]!.Action].flat().sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(JSON.stringify(onStaging[0]!.Resource)).not.toContain('/blobs/');
    // The caller's own blobs stay read-only for it.
    expect(resourcesFor('ingest', 's3:GetObject')).toContain(blobs);
    expect(resourcesFor('ingest', 's3:PutObject')).not.toContain(blobs);
    expect(resourcesFor('ingest', 's3:DeleteObject')).not.toContain(blobs);
    for (const [name] of api.functions) {
      if (name !== 'ingest')
        expect(JSON.stringify(statementsOf(name).map((s) => s.Resource)), name).not.toContain('textract-staging');
    }
  });

  it("lets the reading routes read what they answer from: content the documents table and the index; file also the blobs (get only) and callers' buckets", () => {
    const notDynamo = (name: string) =>
      data(actionsOf(name))
        .filter((a) => !a.startsWith('dynamodb:'))
        .sort();
    const documentsTable = importName('DocumentsTableArn');
    for (const name of ['document-content', 'document-file']) {
      // The record and the library's live generation, read, never written.
      expect(resourcesFor(name, 'dynamodb:GetItem'), name).toContain(documentsTable);
      for (const write of [
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
      ]) {
        expect(resourcesFor(name, write), `${name} ${write}`).not.toContain(documentsTable);
      }
      expect(
        [...actionsOf(name)].some((a) => a.startsWith('bedrock:') || a.startsWith('sqs:') || a.startsWith('textract:')),
        name,
      ).toBe(false);
    }
    expect(notDynamo('document-content')).toEqual(['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost']);
    expect(notDynamo('document-file')).toEqual(['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost', 's3:GetObject']);
    // A presigned URL carries the function's own right to read the object: s3:GetObject on the blob keys, nothing more.
    const blobs = `${importName('BlobBucketArn')}"},"/blobs/*`;
    expect(resourcesFor('document-file', 's3:GetObject')).toContain(blobs);
    expect(resourcesFor('document-file', 's3:GetObject')).not.toContain('textract-staging');
    // The content route never reaches a bucket, the service's or a caller's.
    expect(JSON.stringify(statementsOf('document-content').map((s) => s.Resource))).not.toMatch(
      /BucketsTableArn|BucketSecretsKeyArn|BlobBucketArn/,
    );
  });

  it('uses no AWS managed policy on any function role', () => {
    for (const [name, fn] of api.functions) {
      const roleId = api.getLogicalId(fn.fn.role!.node.defaultChild as never);
      expect(apiTemplate.toJSON().Resources[roleId].Properties.ManagedPolicyArns, name).toBeUndefined();
    }
  });
});

describe('cdk-nag and configuration', () => {
  it('passes the AwsSolutions checks with every finding either fixed or acknowledged with a reason', () => {
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(
      report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('rejects a bad setting by name and applies overrides', () => {
    expect(() => resolveConfig({ throttling: { ratePerSecond: 0 } })).toThrow(/throttling.ratePerSecond/);
    expect(() => resolveConfig({ models: { embeddingDimensions: 768 } })).toThrow(/embeddingDimensions/);
    expect(() => resolveConfig({ search: { zoneAwareness: true, instanceCount: 1 } })).toThrow(/zoneAwareness/);
    expect(() => resolveConfig({ nonsense: 1 })).toThrow(/unknown setting nonsense/);
    expect(() => resolveConfig({ ingest: { concurrency: 0 } })).toThrow(/ingest.concurrency/);
    expect(() => resolveConfig({ ingest: { concurrency: 17 } })).toThrow(/ingest.concurrency/);
    expect(resolveConfig('{"throttling":{"ratePerSecond":5,"burst":10}}').throttling).toEqual({
      ratePerSecond: 5,
      burst: 10,
    });
    const destroyable = synth({ removalPolicy: 'destroy', stackPrefix: 'Dev' });
    expect(destroyable.data.stackName).toBe('Dev-Data');
    expect(destroyable.dataTemplate.toJSON().Resources.DocumentsTable.DeletionPolicy).toBe('Delete');
  });
});

describe('CORS (lib/config.ts cors.allowedOrigins)', () => {
  const ORIGINS = ['https://app.example.com', 'http://localhost:5173'];
  const gatewayResponses = (template: Template) =>
    Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')) as Array<{
      Properties: { ResponseType: string; ResponseParameters: Record<string, string> };
    }>;
  const optionsMethods = (template: Template) =>
    Object.values(
      template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } }),
    ) as Array<{ Properties: Record<string, any> }>;

  it('allows nothing by default: no preflight method, no CORS header on gateway responses, an empty origin list for the functions', () => {
    expect(DEFAULT_CONFIG.cors.allowedOrigins).toEqual([]);
    expect(optionsMethods(apiTemplate)).toHaveLength(0);
    for (const response of gatewayResponses(apiTemplate)) {
      expect(
        Object.keys(response.Properties.ResponseParameters).some((k) => /access-control|vary/i.test(k)),
        response.Properties.ResponseType,
      ).toBe(false);
    }
    for (const fn of serviceFunctions(apiTemplate))
      expect(fn.Properties.Environment.Variables[ENV.corsOrigins]).toBe('');
  });

  it('with allowed origins: answers preflights on every path with a keyless mock that allows only those origins', () => {
    const { api: corsApi, apiTemplate: template } = synth({ cors: { allowedOrigins: ORIGINS } });
    const methods = optionsMethods(template);
    expect(methods).toHaveLength(new Set(ALL_ROUTES.map((r) => r.path)).size);
    const optionPaths = corsApi.api.api.methods.filter((m) => m.httpMethod === 'OPTIONS').map((m) => m.resource.path);
    expect(new Set(optionPaths)).toEqual(new Set(ALL_ROUTES.map((r) => r.path)));
    for (const method of methods) {
      expect(method.Properties).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
      expect(method.Properties.ApiKeyRequired ?? false).toBe(false);
      const response = method.Properties.Integration.IntegrationResponses[0];
      expect(response.StatusCode).toBe('204');
      expect(response.ResponseParameters).toEqual({ 'method.response.header.Vary': "'Origin'" });
      const template = response.ResponseTemplates['application/json'] as string;
      // The allow headers are set only inside the origin check, never statically.
      expect(template).toContain('#if($origin == "https://app.example.com" || $origin == "http://localhost:5173")');
      for (const header of [
        'Access-Control-Allow-Origin = $origin',
        'Access-Control-Allow-Headers = "authorization,content-type,mcp-protocol-version"',
        'Access-Control-Max-Age = "7200"',
      ]) {
        expect(template).toContain(`#set($context.responseOverride.header.${header})`);
      }
      expect(template.trim().endsWith('#end')).toBe(true);
      expect(method.Properties.MethodResponses[0].ResponseParameters).toMatchObject({
        'method.response.header.Access-Control-Allow-Origin': false,
      });
    }
    // The methods each path serves are the ones the preflight names.
    const documents = methods.find((m) =>
      JSON.stringify(m).includes('Access-Control-Allow-Methods = \\"GET,PATCH,DELETE,OPTIONS\\"'),
    );
    expect(documents, 'GET, PATCH and DELETE on /v1/documents/{id}').toBeDefined();
  });

  it('lets browsers read files at the presigned URLs the file route redirects to only when origins are allowed: a GET from any origin (a redirected fetch sends Origin: null), Content-Disposition readable', () => {
    expect(dataTemplate.toJSON().Resources.BlobBucket.Properties.CorsConfiguration).toBeUndefined();
    const { dataTemplate: withCors } = synth({ cors: { allowedOrigins: ORIGINS } });
    const blob = withCors.toJSON().Resources.BlobBucket.Properties;
    expect(blob.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ['GET'],
          AllowedOrigins: ['*'],
          ExposedHeaders: ['Content-Disposition', 'Content-Length'],
          MaxAge: 3600,
        },
      ],
    });
    // Still private: public access blocked, objects readable only by a signed request.
    expect(blob.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it("with allowed origins: the gateway's own errors carry the CORS headers, and every function gets the list", () => {
    const several = synth({ cors: { allowedOrigins: ORIGINS } }).apiTemplate;
    for (const response of gatewayResponses(several)) {
      expect(response.Properties.ResponseParameters, response.Properties.ResponseType).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': 'method.request.header.Origin',
        'gatewayresponse.header.Access-Control-Expose-Headers': "'x-request-id,retry-after,content-disposition'",
        'gatewayresponse.header.Vary': "'Origin'",
      });
    }
    expect(gatewayResponses(several).map((r) => r.Properties.ResponseType)).toEqual(
      expect.arrayContaining(['UNAUTHORIZED', 'THROTTLED', 'DEFAULT_4XX', 'DEFAULT_5XX']),
    );
    for (const fn of serviceFunctions(several))
      expect(fn.Properties.Environment.Variables[ENV.corsOrigins]).toBe(ORIGINS.join(','));

    // One origin: named exactly, not echoed.
    const one = synth({ cors: { allowedOrigins: ['https://app.example.com'] } }).apiTemplate;
    for (const response of gatewayResponses(one)) {
      expect(response.Properties.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe(
        "'https://app.example.com'",
      );
    }
  });

  it('passes cdk-nag with CORS on, and refuses anything but exact origins', () => {
    const { app: corsApp } = synth({ cors: { allowedOrigins: ORIGINS } });
    const report = new AwsSolutionsChecks(corsApp).validateScope(corsApp);
    expect(
      report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
    for (const bad of [
      '*',
      'https://app.example.com/',
      'app.example.com',
      'https://app.example.com/path',
      'ftp://x.example',
    ]) {
      expect(() => resolveConfig({ cors: { allowedOrigins: [bad] } }), bad).toThrow(
        /cors.allowedOrigins: .* is not an exact origin/,
      );
    }
    expect(() => resolveConfig({ cors: { allowedOrigins: 'https://app.example.com' } })).toThrow(/must be a list/);
  });

  it('serves the web console at GET /console and its files at GET /console/{asset}, without a key, touching no data', () => {
    for (const [path, name] of [
      ['/console', 'console'],
      ['/console/{asset}', 'console-asset'],
    ] as const) {
      const method = api.api.api.methods.find((m) => m.resource.path === path && m.httpMethod === 'GET');
      expect(method, path).toBeDefined();
      const properties =
        apiTemplate.toJSON().Resources[api.getLogicalId(method!.node.defaultChild as never)].Properties;
      expect(properties).toMatchObject({
        HttpMethod: 'GET',
        AuthorizationType: 'NONE',
        Integration: { Type: 'AWS_PROXY' },
      });
      expect(properties.ApiKeyRequired ?? false).toBe(false);
      expect(functionSpecs().find((s) => s.name === name)!.access).toEqual({});
      expect(
        statementsOf(name)
          .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]))
          .every((a) => a.startsWith('logs:') || a.startsWith('xray:')),
        name,
      ).toBe(true);
    }
    apiTemplate.hasOutput('ConsoleUrl', { Value: Match.objectLike({}) });
  });

  it('serves the API reference page at GET /docs without a key, from its own function', () => {
    const method = api.api.api.methods.find((m) => m.resource.path === '/docs' && m.httpMethod === 'GET');
    expect(method).toBeDefined();
    const properties = apiTemplate.toJSON().Resources[api.getLogicalId(method!.node.defaultChild as never)].Properties;
    expect(properties).toMatchObject({
      HttpMethod: 'GET',
      AuthorizationType: 'NONE',
      Integration: { Type: 'AWS_PROXY' },
    });
    expect(properties.ApiKeyRequired ?? false).toBe(false);
    expect(functionSpecs().find((s) => s.name === 'docs')!.access).toEqual({});
    expect(
      statementsOf('docs')
        .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]))
        .every((a) => a.startsWith('logs:') || a.startsWith('xray:')),
    ).toBe(true);
  });
});

describe('callers\' buckets (API.md "Caller-owned bucket")', () => {
  /** The functions that read, write or delete caller blobs: they may assume the dedicated role. */
  const REACHING = [
    'capture',
    'capture-batch',
    'ingest',
    'document-delete',
    'document-file',
    'end-user-delete',
    'sweeper',
    'bucket-put',
    'mcp',
  ];
  const BUCKET_ROUTES = ['bucket-trust-policy', 'bucket-put', 'bucket-get', 'bucket-delete'];
  const roleOf = (name: string) => ({
    'Fn::GetAtt': [api.getLogicalId(api.functions.get(name)!.fn.role!.node.defaultChild as never), 'Arn'],
  });
  const dedicated = () => apiTemplate.toJSON().Resources.CallerBucketAccessRole;
  const dedicatedArn = { 'Fn::GetAtt': ['CallerBucketAccessRole', 'Arn'] };
  const variables = (name: string) =>
    apiTemplate.toJSON().Resources[logicalId(api, api.functions.get(name)!.fn)].Properties.Environment.Variables;
  const stsStatements = (name: string) =>
    statementsOf(name).filter((s) => [s.Action].flat().some((a) => a.startsWith('sts:')));
  // The secrets key's actions; kms:GenerateMac is the end-user log key's (its own test, below).
  const kmsActions = (name: string) =>
    [...actionsOf(name)].filter((a) => a.startsWith('kms:') && a !== 'kms:GenerateMac').sort();

  it('routes the four bucket endpoints to their own functions, behind the key', () => {
    for (const name of BUCKET_ROUTES) {
      const route = ROUTES.find((r) => r.name === name);
      expect(route, name).toMatchObject({ auth: true });
      expect(api.functions.has(name), name).toBe(true);
    }
  });

  it("has one dedicated role, pinned, that trusts exactly the functions that reach callers' buckets", () => {
    const role = dedicated();
    expect(role?.Type).toBe('AWS::IAM::Role');
    const trust = role.Properties.AssumeRolePolicyDocument.Statement as Array<{
      Action: string;
      Effect: string;
      Principal: { AWS: unknown };
      Condition?: unknown;
    }>;
    for (const statement of trust) expect(statement).toMatchObject({ Action: 'sts:AssumeRole', Effect: 'Allow' });
    const principals = trust.flatMap((statement) => [statement.Principal.AWS].flat());
    expect(principals).toHaveLength(REACHING.length);
    expect(principals).toEqual(expect.arrayContaining(REACHING.map(roleOf)));
    // Not the account root: a principal customers can name exactly.
    expect(JSON.stringify(principals)).not.toContain(':root');
    for (const name of ['search', 'chat', 'bucket-get', 'bucket-trust-policy', 'authorizer'])
      expect(principals, name).not.toContainEqual(roleOf(name));
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('lets the dedicated role assume other roles only with an external id and a session named for a tenant, and do nothing else', () => {
    const policies = Object.values(
      apiTemplate.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: 'CallerBucketAccessRole' }] } }),
    ) as Array<{ Properties: { PolicyDocument: { Statement: any[] } } }>;
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toEqual([
      {
        Sid: 'AssumeCustomerRolesWithExternalId',
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::*:role/*']] },
        Condition: { Null: { 'sts:ExternalId': 'false' }, StringLike: { 'sts:RoleSessionName': 'library-*' } },
      },
    ]);
  });

  it('lets only the reaching functions assume the dedicated role, and no function assume any other role', () => {
    for (const [name] of api.functions) {
      const statements = stsStatements(name);
      if (!REACHING.includes(name)) {
        expect(statements, name).toEqual([]);
        continue;
      }
      expect(statements, name).toHaveLength(1);
      expect(statements[0], name).toMatchObject({ Action: 'sts:AssumeRole', Resource: dedicatedArn });
    }
  });

  it('grants the secrets key by use, only under a tenant_id encryption context: seal to bucket-put, open to the functions that reach buckets', () => {
    const keyArn = importName('BucketSecretsKeyArn');
    expect(kmsActions('bucket-put')).toEqual(['kms:Encrypt']);
    for (const name of REACHING.filter((n) => n !== 'bucket-put'))
      expect(kmsActions(name), name).toEqual(['kms:Decrypt']);
    for (const name of [
      'bucket-get',
      'bucket-trust-policy',
      'bucket-delete',
      'search',
      'chat',
      'document-get',
      'document-content',
    ])
      expect(kmsActions(name), name).toEqual([]);
    const statement = statementsOf('capture').find((s) => [s.Action].flat().includes('kms:Decrypt')) as unknown as {
      Resource: unknown;
      Condition: unknown;
    };
    expect(JSON.stringify(statement.Resource)).toContain(keyArn);
    expect(statement.Condition).toEqual({
      'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['tenant_id'] },
      Null: { 'kms:EncryptionContext:tenant_id': 'false' },
    });
  });

  it('gives the buckets table (registrations, external ids, deletes owed) to the bucket functions only, read-only to GET /v1/bucket', () => {
    const table = importName('BucketsTableArn');
    for (const name of [...REACHING, 'bucket-trust-policy', 'bucket-delete'])
      expect(resourcesFor(name, 'dynamodb:PutItem'), name).toContain(table);
    expect(resourcesFor('bucket-get', 'dynamodb:GetItem')).toContain(table);
    expect(resourcesFor('bucket-get', 'dynamodb:PutItem')).not.toContain(table);
    for (const name of ['search', 'grep', 'chat', 'usage', 'authorizer', 'documents-list'])
      expect(JSON.stringify(statementsOf(name).map((s) => s.Resource)), name).not.toContain(table);
    // The bucket endpoints never touch the service's own blobs.
    for (const name of BUCKET_ROUTES)
      expect(
        [...actionsOf(name)].filter((a) => a.startsWith('s3:')),
        name,
      ).toEqual([]);
    dataTemplate.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'due' })],
    });
  });

  it('tells the bucket functions the table, the dedicated role and the key, and no other function', () => {
    for (const [name] of api.functions) {
      const env = variables(name);
      const uses = [...REACHING, ...BUCKET_ROUTES].includes(name);
      for (const variable of Object.values(BUCKET_ENV))
        expect(env[variable] !== undefined, `${name} ${variable}`).toBe(uses);
      if (uses) expect(env[BUCKET_ENV.accessRoleArn], name).toEqual(dedicatedArn);
    }
    expect(JSON.stringify(variables('bucket-get')[BUCKET_ENV.table])).toContain('BucketsTableArn');
  });

  it("outputs the principal customers trust, the dedicated role's ARN", () => {
    apiTemplate.hasOutput('BucketPrincipalArn', { Value: dedicatedArn });
  });
});

describe('the end-user log key (end users named in logs by a keyed HMAC)', () => {
  /** The functions whose requests address an end user's library, so their logs name end users. */
  const NAMING = [
    'capture',
    'capture-batch',
    'search',
    'grep',
    'documents-list',
    'document-get',
    'document-update',
    'document-delete',
    'document-content',
    'document-file',
    'end-user-delete',
    'chat',
    'mcp',
  ];
  const variables = (name: string) =>
    apiTemplate.toJSON().Resources[logicalId(api, api.functions.get(name)!.fn)].Properties.Environment.Variables;

  it('is an HMAC key of its own in the data stack, pinned and retained, its ARN exported to the API stack', () => {
    const key = dataTemplate.toJSON().Resources.EndUserLogKey;
    expect(key).toMatchObject({
      Type: 'AWS::KMS::Key',
      DeletionPolicy: 'Retain',
      Properties: { KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' },
    });
    // Not the secrets key: one key, one use.
    expect(dataTemplate.toJSON().Resources.BucketSecretsKey.Properties.KeySpec).toBeUndefined();
    dataTemplate.hasOutput('*', { Export: { Name: importName('EndUserLogKeyArn') } });
  });

  it('lets exactly the functions that name end users derive from it: kms:GenerateMac with HMAC-SHA-256 on that key only, and tells them its ARN', () => {
    for (const [name] of api.functions) {
      const statements = statementsOf(name).filter((s) => [s.Action].flat().includes('kms:GenerateMac'));
      const env = variables(name);
      if (!NAMING.includes(name)) {
        expect(statements, name).toEqual([]);
        expect(env[ENV.endUserLogKeyArn], name).toBeUndefined();
        continue;
      }
      expect(statements, name).toHaveLength(1);
      expect([statements[0]!.Action].flat(), name).toEqual(['kms:GenerateMac']);
      expect(JSON.stringify(statements[0]!.Resource), name).toContain(importName('EndUserLogKeyArn'));
      expect(JSON.stringify(statements[0]!.Resource), name).not.toContain('*');
      expect((statements[0] as unknown as { Condition: unknown }).Condition, name).toEqual({
        StringEquals: { 'kms:MacAlgorithm': 'HMAC_SHA_256' },
      });
      expect(JSON.stringify(env[ENV.endUserLogKeyArn]), name).toContain('EndUserLogKeyArn');
    }
    // No function may verify MACs, or use the key for anything else.
    for (const [name] of api.functions)
      expect(
        [...actionsOf(name)].filter((a) => /Mac|kms:\*/.test(a) && a !== 'kms:GenerateMac'),
        name,
      ).toEqual([]);
  });

  it('has every entry of those functions derive the key before its handler runs, and no other entry', () => {
    // Those functions are the routes that address a library (libraryOf, directly or through the capture receipts) and the end user's own route.
    const addressing = ROUTES.filter((route) => {
      const handler = readFileSync(join(dirname(entryOf(route.name)), 'handler.ts'), 'utf8');
      return /libraryOf\(|\/receipts\.js/.test(handler) || route.path === '/v1/end-users/{id}';
    }).map((route) => route.name);
    expect(addressing.sort()).toEqual([...NAMING].sort());
    for (const spec of functionSpecs()) {
      const wraps = /instrumented\(\s*withEndUserLogKey\(/.test(readFileSync(spec.entry, 'utf8'));
      expect(wraps, spec.name).toBe(NAMING.includes(spec.name));
    }
  });
});

/** A route's Lambda entry (index.ts), beside its handler. */
function entryOf(name: string): string {
  return functionSpecs().find((spec) => spec.name === name)!.entry;
}

describe("the embedder's cosine scale (core/chat/calibration.ts), measured at deploy", () => {
  it('is a custom resource over the embedder-scale function, measured again when the model, its dimensions or the calibration set change', () => {
    const scaleFn = logicalId(api, api.functions.get('embedder-scale')!.fn);
    apiTemplate.hasResourceProperties('Custom::LibraryEmbedderScale', {
      ServiceToken: Match.anyValue(),
      ModelId: DEFAULT_CONFIG.models.embeddingModelId,
      Dimensions: String(DEFAULT_CONFIG.models.embeddingDimensions),
      CalibrationSet: Match.stringLikeRegexp('^[0-9a-f]{16}$'),
    });
    // The provider framework invokes that function; the function may only invoke the embedding model.
    expect(JSON.stringify(apiTemplate.findResources('AWS::Lambda::Function'))).toContain(scaleFn);
    expect([...actionsOf('embedder-scale')].filter((a) => !a.startsWith('xray:') && !a.startsWith('logs:'))).toEqual([
      'bedrock:InvokeModel',
    ]);
  });

  it('is set on the chat, search and mcp functions as LIBRARY_EMBEDDING_SCALE (related,unrelated from the resource), and on no function that does not read cosines', () => {
    const resourceId = logicalId(api, api.embedderScale.resource);
    const readers = ['Library POST /v1/chat', 'Library GET /v1/search', 'Library POST /v1/mcp'];
    for (const description of readers) {
      const fn = apiTemplate.findResources('AWS::Lambda::Function', { Properties: { Description: description } });
      const variables = (
        Object.values(fn)[0] as { Properties: { Environment: { Variables: Record<string, unknown> } } }
      ).Properties.Environment.Variables;
      expect(variables[ENV.embeddingScale], description).toEqual({
        'Fn::Join': [',', [{ 'Fn::GetAtt': [resourceId, 'Related'] }, { 'Fn::GetAtt': [resourceId, 'Unrelated'] }]],
      });
    }
    const others = serviceFunctions(apiTemplate).filter((fn) => !readers.includes(fn.Properties.Description));
    for (const fn of others)
      expect(fn.Properties.Environment.Variables[ENV.embeddingScale], fn.Properties.Description).toBeUndefined();
  });
});
