import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { LibraryFunction } from './library-function.js';

export interface IngestPipelineProps {
  /** The function's timeout: the queue hides a message six times as long while it is worked on. */
  readonly workerTimeoutSeconds: number;
  readonly maxReceiveCount: number;
}

/**
 * The queue for slow work (OCR, large PDFs): SQS, encrypted, TLS only, with a
 * dead-letter queue after maxReceiveCount deliveries and an alarm on it. The
 * worker is attached with `attachWorker` (partial batch failures on).
 */
export class IngestPipeline extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly deadLetterAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: IngestPipelineProps) {
    super(scope, id);
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.workerTimeoutSeconds * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: props.maxReceiveCount },
    });
    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLettersAlarm', {
      alarmDescription: 'Library: ingest jobs reached the dead-letter queue',
      metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  attachWorker(worker: LibraryFunction): void {
    worker.fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));
  }
}
