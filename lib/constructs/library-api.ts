import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_ALLOW_HEADERS, CORS_MAX_AGE_SECONDS } from '../../lambdas/http/cors.js';
import type { RouteDefinition } from '../../lambdas/http/route.js';
import { errorTemplate, GatewayResponses } from './gateway-responses.js';

export interface LibraryApiProps {
  readonly routes: readonly RouteDefinition[];
  /** The function of each route, by route name. */
  readonly handlers: ReadonlyMap<string, lambda.IFunction>;
  readonly authorizer: lambda.IFunction;
  readonly stageName: string;
  readonly throttling: { readonly ratePerSecond: number; readonly burst: number };
  readonly authorizerCacheSeconds: number;
  readonly logRetentionDays: number;
  /** Exact origins browser apps may call from; empty: no preflight answered, no CORS header (lib/config.ts). */
  readonly corsOrigins?: readonly string[];
}

/** What API Gateway lets through to the authorizer: the contract's key shape (anything else is 401 without a call). */
/** The scheme in any case (RFC 9110, 11.1), as the authorizer reads it. */
export const BEARER_KEY_PATTERN = '^[Bb][Ee][Aa][Rr][Ee][Rr] lib_[0-9A-Za-z]{40}$';

/**
 * The REST API: one method per route of the route table, each proxied to its
 * own function (a streaming route's response streamed: ResponseTransferMode
 * STREAM); the TOKEN authorizer on every keyed route, whose
 * usageIdentifierKey selects the key's entry in the usage plan (per-key
 * throttling, 429); a 405 for every other method on a known path; access
 * logs, X-Ray and metrics on the stage; errors API Gateway makes itself in
 * the contract's shape (gateway-responses.ts). With allowed origins, every
 * path answers CORS preflights (an OPTIONS mock) and the gateway's own errors
 * carry the CORS headers; the functions add them to theirs.
 */
export class LibraryApi extends Construct {
  readonly api: apigateway.RestApi;
  readonly usagePlan: apigateway.UsagePlan;

  constructor(scope: Construct, id: string, props: LibraryApiProps) {
    super(scope, id);
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const publicThrottle = {
      throttlingRateLimit: props.throttling.ratePerSecond,
      throttlingBurstLimit: props.throttling.burst,
    };
    this.api = new apigateway.RestApi(this, 'Api', {
      description: 'Library API (v1)',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stageName,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields({
          caller: false,
          httpMethod: true,
          ip: true,
          protocol: true,
          requestTime: true,
          resourcePath: true,
          responseLength: true,
          status: true,
          user: false,
        }),
        // The routes without a key are throttled per route, as a whole.
        methodOptions: Object.fromEntries(
          props.routes.filter((r) => !r.auth).map((r) => [`${r.path}/${r.method}`, publicThrottle]),
        ),
      },
    });
    const corsOrigins = props.corsOrigins ?? [];
    new GatewayResponses(this, 'GatewayResponses', { api: this.api, corsOrigins });

    const authorizer = new apigateway.TokenAuthorizer(this, 'KeyAuthorizer', {
      handler: props.authorizer,
      identitySource: apigateway.IdentitySource.header('Authorization'),
      validationRegex: BEARER_KEY_PATTERN,
      resultsCacheTtl: Duration.seconds(props.authorizerCacheSeconds),
    });
    const validator = new apigateway.RequestValidator(this, 'Validator', {
      restApi: this.api,
      // The functions validate bodies against the contract's schemas; no model here, so nothing is refused twice.
      validateRequestParameters: true,
      validateRequestBody: true,
    });

    const methodsByPath = new Map<string, string[]>();
    for (const route of props.routes) {
      const fn = props.handlers.get(route.name);
      if (!fn) throw new Error(`no function for route ${route.name}`);
      const resource = this.api.root.resourceForPath(route.path);
      // A streaming route's answer reaches the caller as the function writes it (InvokeWithResponseStream).
      const streaming = route.streaming ? { responseTransferMode: apigateway.ResponseTransferMode.STREAM } : {};
      resource.addMethod(
        route.method,
        new apigateway.LambdaIntegration(fn, { proxy: true, allowTestInvoke: false, ...streaming }),
        {
          operationName: route.name,
          requestValidator: validator,
          ...(route.auth
            ? { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM, apiKeyRequired: true }
            : {}),
        },
      );
      methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    }
    for (const [path, methods] of methodsByPath) {
      if (corsOrigins.length)
        this.api.root
          .resourceForPath(path)
          .addMethod('OPTIONS', corsPreflight(corsOrigins, methods), CORS_PREFLIGHT_METHOD);
      this.api.root.resourceForPath(path).addMethod('ANY', methodNotAllowed(methods.join(', ')), {
        requestValidator: validator,
        methodResponses: [{ statusCode: '405', responseParameters: { 'method.response.header.Allow': true } }],
      });
    }

    this.usagePlan = this.api.addUsagePlan('UsagePlan', {
      description: 'Per API key: the contract rate; the authorizer names the key',
      throttle: { rateLimit: props.throttling.ratePerSecond, burstLimit: props.throttling.burst },
      apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
    });
  }
}

const PREFLIGHT_HEADERS = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Max-Age',
] as const;

const CORS_PREFLIGHT_METHOD: apigateway.MethodOptions = {
  methodResponses: [
    {
      statusCode: '204',
      responseParameters: {
        'method.response.header.Vary': true,
        ...Object.fromEntries(PREFLIGHT_HEADERS.map((h) => [`method.response.header.${h}`, false])),
      },
    },
  ],
};

/**
 * A CORS preflight answered by API Gateway itself (no function, no key):
 * 204 with Vary: Origin; the allow headers are set only when the request's
 * Origin is one of the allowed (a response override in the mapping template,
 * as CDK's own preflight does; unlike it, an unlisted origin gets none).
 */
export function corsPreflight(origins: readonly string[], methods: readonly string[]): apigateway.MockIntegration {
  const allowed = origins.map((o) => `$origin == ${JSON.stringify(o)}`).join(' || ');
  const values: Record<(typeof PREFLIGHT_HEADERS)[number], string> = {
    'Access-Control-Allow-Origin': '$origin',
    'Access-Control-Allow-Methods': JSON.stringify([...methods, 'OPTIONS'].join(',')),
    'Access-Control-Allow-Headers': JSON.stringify(CORS_ALLOW_HEADERS),
    'Access-Control-Max-Age': JSON.stringify(String(CORS_MAX_AGE_SECONDS)),
  };
  const template = [
    '#set($origin = $input.params().header.get("Origin"))',
    '#if(!$origin || $origin == "")#set($origin = $input.params().header.get("origin"))#end',
    `#if(${allowed})`,
    ...PREFLIGHT_HEADERS.map((h) => `#set($context.responseOverride.header.${h} = ${values[h]})`),
    '#end',
  ].join('\n');
  return new apigateway.MockIntegration({
    passthroughBehavior: apigateway.PassthroughBehavior.NEVER,
    requestTemplates: Object.fromEntries(MOCK_CONTENT_TYPES.map((t) => [t, '{"statusCode": 204}'])),
    integrationResponses: [
      {
        statusCode: '204',
        responseParameters: { 'method.response.header.Vary': "'Origin'" },
        responseTemplates: { 'application/json': template },
      },
    ],
  });
}

const MOCK_CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/octet-stream',
];

/** A mock answer for a known path with a method it does not serve: 405 with Allow, in the contract's error body. */
function methodNotAllowed(allowed: string): apigateway.MockIntegration {
  const body = errorTemplate('method_not_allowed', `"$context.httpMethod is not allowed on this path; use ${allowed}"`);
  const requestTemplate = '{"statusCode": 405}';
  return new apigateway.MockIntegration({
    passthroughBehavior: apigateway.PassthroughBehavior.NEVER,
    requestTemplates: Object.fromEntries(MOCK_CONTENT_TYPES.map((t) => [t, requestTemplate])),
    integrationResponses: [
      {
        statusCode: '405',
        responseParameters: { 'method.response.header.Allow': `'${allowed}'` },
        responseTemplates: { 'application/json': body },
      },
    ],
  });
}
