import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import type { AwsConfig } from './config.js';
import { tracer } from './observability.js';

/**
 * The AWS SDK clients, made once per Lambda environment and traced by X-Ray
 * (Powertools Tracer). The SDK's own retries (standard mode, 3 attempts)
 * absorb short throttles; what outlasts them becomes backend_unavailable.
 */
export interface AwsClients {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  bedrock: BedrockRuntimeClient;
  sqs: SQSClient;
  openSearch: OpenSearchClient;
}

export function createAwsClients(config: AwsConfig): AwsClients {
  const common = { region: config.region, maxAttempts: 3 };
  const dynamo = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient(common)), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const credentials = defaultProvider();
  const openSearch = new OpenSearchClient({
    ...AwsSigv4Signer({ region: config.region, service: 'es', getCredentials: () => credentials() }),
    node: config.search.endpoint,
    requestTimeout: 10_000,
    maxRetries: 2,
  });
  return {
    dynamo,
    s3: tracer.captureAWSv3Client(new S3Client(common)),
    bedrock: tracer.captureAWSv3Client(new BedrockRuntimeClient(common)),
    sqs: tracer.captureAWSv3Client(new SQSClient(common)),
    openSearch,
  };
}
