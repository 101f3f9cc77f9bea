import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsIngestQueue } from '../../adapters/aws/sqs-ingest-queue.js';
import { awsConfig } from './config.js';
import { documentStore } from './dynamo.js';
import { tracer } from './observability.js';
import { sdkOptions } from './sdk.js';

/** The ingest queue, its SQS client made on the first call; job bodies name libraries by references in the documents table. */
let queue: SqsIngestQueue | undefined;

export function ingestQueue(): SqsIngestQueue {
  return (queue ??= new SqsIngestQueue(
    tracer.captureAWSv3Client(new SQSClient(sdkOptions())),
    awsConfig().ingestQueueUrl,
    documentStore(),
  ));
}
