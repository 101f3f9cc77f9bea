import { type CfnElement, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { ALL_ROUTES } from '../lambdas/endpoints/routes.js';
import { TEXTRACT_STAGING_PREFIX } from '../lambdas/wiring/aws/config.js';
import type { ApiStack } from './api-stack.js';
import type { LibraryConfig } from './config.js';
import type { StatefulStack } from './stateful-stack.js';

const accept = (scope: IConstruct, id: string, reason: string) => Validations.of(scope).acknowledge({ id, reason });

/**
 * The cdk-nag AwsSolutions findings this design accepts, each on the exact
 * construct it concerns and with its reason. Everything else is fixed at the
 * source; bin/cdk.ts fails the synth on any finding not listed here.
 */
export function applyNagSuppressions(config: LibraryConfig, data: StatefulStack, api: ApiStack): void {
  const domain = data.search.domain;
  accept(
    domain,
    'AwsSolutions-OS1',
    'No VPC by design: access is IAM (SigV4) only, HTTPS with TLS 1.2; a VPC would add NAT or endpoint cost to every function for no extra control.',
  );
  accept(
    domain,
    'AwsSolutions-OS3',
    'Access is granted by IAM identity (each function role names its HTTP verbs), not by IP: Lambda has no fixed source IP.',
  );
  accept(
    domain,
    'AwsSolutions-OS4',
    'Dedicated master nodes triple the cost of the small default domain; larger deployments can size it in the search config.',
  );
  if (!config.search.zoneAwareness) {
    accept(
      domain,
      'AwsSolutions-OS7',
      'Zone awareness needs two or more nodes; the default is one cheap node. Set search.zoneAwareness with an even instanceCount for production.',
    );
  }

  const exported = (name: string) => `${data.stackName}-${name}`;
  for (const [name, fn] of api.functions) {
    const access = api.accessOf(name);
    accept(
      fn,
      'AwsSolutions-L1',
      'Node.js 22 is the runtime the service is built and tested for (target node22); it moves to the next LTS deliberately, not automatically.',
    );
    accept(
      fn,
      'AwsSolutions-IAM5[Resource::*]',
      name === 'ingest'
        ? 'X-Ray (PutTraceSegments, PutTelemetryRecords) and Textract text detection have no resource-level permissions; both are `*` by AWS design.'
        : 'X-Ray (PutTraceSegments, PutTelemetryRecords) has no resource-level permissions; `*` is the only form AWS accepts.',
    );
    if (access.documents) {
      accept(
        fn,
        `AwsSolutions-IAM5[Resource::${exported('DocumentsTableArn')}/index/*]`,
        "Queries the documents table's own indexes (newest LSI, processing GSI), and nothing else.",
      );
    }
    if (access.callerBuckets) {
      accept(
        fn,
        `AwsSolutions-IAM5[Resource::${exported('BucketsTableArn')}/index/*]`,
        "Queries the buckets table's own index (the deletes owed to callers' buckets, by when they are due), and nothing else.",
      );
    }
    if (access.blobs) {
      accept(
        fn,
        `AwsSolutions-IAM5[Resource::${exported('BlobBucketArn')}/blobs/*]`,
        'Object keys are per tenant and document (blobs/<tenant>/<id>), chosen at run time; the actions are named one by one.',
      );
    }
    if (access.textract) {
      accept(
        fn,
        `AwsSolutions-IAM5[Resource::${exported('BlobBucketArn')}/${TEXTRACT_STAGING_PREFIX}*]`,
        "PDFs staged for Textract's asynchronous job are named by their SHA-256 at run time (textract-staging/<sha256>.pdf); get, put and delete are named one by one.",
      );
    }
    if (access.search) {
      accept(
        fn,
        `AwsSolutions-IAM5[Resource::${exported('SearchDomainArn')}/*]`,
        "Index paths of the service's own domain; the HTTP verbs are named one by one (reads: GET, HEAD, POST).",
      );
    }
  }

  // The custom-resource provider framework CDK ships (its own function, role and invoke grant) around the embedder-scale function.
  const provider = api.embedderScale.provider;
  const scaleFunction = api.getLogicalId(api.functions.get('embedder-scale')!.fn.node.defaultChild as CfnElement);
  accept(
    provider,
    'AwsSolutions-L1',
    "The provider framework's function is CDK's, on the runtime the pinned aws-cdk-lib chooses; it only relays deploy-time events.",
  );
  accept(
    provider,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    "CDK's provider framework role writes its own logs with the managed basic execution policy.",
  );
  accept(
    provider,
    `AwsSolutions-IAM5[Resource::<${scaleFunction}.Arn>:*]`,
    'The framework may invoke the embedder-scale function and its versions (CDK grants lambda:InvokeFunction on the ARN and ARN:*).',
  );

  const restApi = api.api.api;
  accept(
    restApi,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    "API Gateway's account-level logging role uses the managed policy AWS publishes for exactly that purpose.",
  );
  accept(
    restApi,
    'AwsSolutions-APIG3',
    'WAF is optional (about $6/month plus requests): the API authenticates every data call and throttles per key; attach a web ACL to the stage where required.',
  );
  const publicPaths = new Set(ALL_ROUTES.filter((r) => !r.auth).map((r) => `${r.path} ${r.method}`));
  for (const method of restApi.methods) {
    accept(
      method,
      'AwsSolutions-COG4',
      'Callers are machines with API keys: a Lambda TOKEN authorizer checks the key hash; there are no Cognito users.',
    );
    if (method.httpMethod === 'ANY') {
      accept(
        method,
        'AwsSolutions-APIG4',
        'A mock that only answers 405 method_not_allowed for methods a path does not serve; it reaches no function and no data.',
      );
    } else if (method.httpMethod === 'OPTIONS') {
      accept(
        method,
        'AwsSolutions-APIG4',
        'A CORS preflight mock (only when the operator allows origins): browsers send preflights without credentials; it reaches no function and no data.',
      );
    } else if (publicPaths.has(`${method.resource.path} ${method.httpMethod}`)) {
      accept(
        method,
        'AwsSolutions-APIG4',
        'Public by contract (API.md): health and the OpenAPI document need no key; the API reference page is static; they read no data.',
      );
    }
  }
}
