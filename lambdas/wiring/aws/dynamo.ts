import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoConversationStore } from '../../adapters/aws/dynamo-conversation-store.js';
import { DynamoDocumentStore } from '../../adapters/aws/dynamo-document-store.js';
import { DynamoUsageLedger } from '../../adapters/aws/dynamo-usage-ledger.js';
import { awsConfig } from './config.js';
import { tracer } from './observability.js';
import { sdkOptions } from './sdk.js';

/** The DynamoDB ports (documents, conversations, usage), on one client made on the first call. The authorizer has its own (authorizer.ts). */
let client: DynamoDBDocumentClient | undefined;
let documents: DynamoDocumentStore | undefined;
let usage: DynamoUsageLedger | undefined;
let conversations: DynamoConversationStore | undefined;

/** The function's one DynamoDB client; the caller-bucket ports (buckets.ts) share it. */
export function dynamoClient(): DynamoDBDocumentClient {
  return (client ??= DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient(sdkOptions())), {
    marshallOptions: { removeUndefinedValues: true },
  }));
}

export function documentStore(): DynamoDocumentStore {
  return (documents ??= new DynamoDocumentStore(dynamoClient(), awsConfig().tables.documents));
}

export function usageLedger(): DynamoUsageLedger {
  return (usage ??= new DynamoUsageLedger(dynamoClient(), awsConfig().tables.usage));
}

/** Conversations' turns: in the documents table, in their library's partition. */
export function conversationStore(): DynamoConversationStore {
  return (conversations ??= new DynamoConversationStore(dynamoClient(), awsConfig().tables.documents));
}
