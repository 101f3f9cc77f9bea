import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { LibraryFunction } from './library-function.js';

/**
 * How many worker timeouts the queue hides a message for while it is worked
 * on (AWS advises at least six for a Lambda event source, so that Lambda can
 * retry a throttled invocation before the message reappears). The sweeper's
 * patience derives from it (lib/api-stack.ts).
 */
export const WORKER_TIMEOUTS_PER_DELIVERY = 6;

export interface IngestPipelineProps {
  /** The function's timeout: the queue hides a message WORKER_TIMEOUTS_PER_DELIVERY times as long while it is worked on. */
  readonly workerTimeoutSeconds: number;
  readonly maxReceiveCount: number;
  /** Subscribed to the alarm topic by email (AWS asks the address to confirm); none: subscribe yourself. */
  readonly alarmEmail?: string;
}

/**
 * The queue of background indexing (files to extract and OCR, capture-batch
 * items and large texts to embed): SQS, encrypted, TLS only, with a
 * dead-letter queue after maxReceiveCount deliveries and an alarm on it that
 * notifies an SNS topic (encrypted with its own key, which CloudWatch may
 * use: alarms cannot publish to a topic under the AWS managed SNS key). The
 * worker is attached with `attachWorker` (partial batch failures on).
 */
export class IngestPipeline extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  readonly alarmTopic: sns.Topic;

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
      visibilityTimeout: Duration.seconds(props.workerTimeoutSeconds * WORKER_TIMEOUTS_PER_DELIVERY),
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
    const topicKey = new kms.Key(this, 'AlarmTopicKey', {
      enableKeyRotation: true,
      description: 'Library: alarm topic encryption',
    });
    topicKey.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Library alarms',
      masterKey: topicKey,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.deadLetterAlarm.addAlarmAction(new actions.SnsAction(this.alarmTopic));
  }

  attachWorker(worker: LibraryFunction): void {
    worker.fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));
  }
}
