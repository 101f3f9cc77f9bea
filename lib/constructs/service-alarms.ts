import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import {
  METRIC,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  REJECT_CODE_DIMENSION,
} from '../../lambdas/wiring/aws/metric-names.js';

export interface ServiceAlarmsProps {
  /** Where every alarm goes (the ingest pipeline's encrypted topic). */
  readonly topic: sns.ITopic;
}

/** A Sum of one of the service's own metrics (lambdas/wiring/aws/metric-names.ts), over `minutes`. */
export function serviceMetric(
  name: string,
  minutes: number,
  dimensions: Record<string, string> = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
    statistic: cloudwatch.Stats.SUM,
    period: Duration.minutes(minutes),
  });
}

/**
 * Alarms on the failures the service's own metrics count (the functions
 * emit them with Powertools Metrics): captures refused because a backend
 * was unavailable (the caller was told to retry: a few are throttling, a
 * run of them an outage), documents whose indexing gave up after every
 * retry, and documents the sweeper found abandoned. Each notifies the alarm
 * topic; no data is no alarm.
 */
export class ServiceAlarms extends Construct {
  readonly captureFailures: cloudwatch.Alarm;
  readonly ingestGaveUp: cloudwatch.Alarm;
  readonly documentsAbandoned: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const alarm = (alarmId: string, description: string, metric: cloudwatch.Metric, threshold: number) => {
      const made = new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      made.addAlarmAction(new actions.SnsAction(props.topic));
      return made;
    };
    this.captureFailures = alarm(
      'CaptureFailuresAlarm',
      'Library: captures rejected backend_unavailable (5 or more in 5 minutes)',
      serviceMetric(METRIC.captureRejections, 5, { [REJECT_CODE_DIMENSION]: 'backend_unavailable' }),
      5,
    );
    this.ingestGaveUp = alarm(
      'IngestGaveUpAlarm',
      'Library: documents ended failed because indexing gave up after repeated backend failures',
      serviceMetric(METRIC.ingestGaveUp, 5),
      1,
    );
    // The sweeper runs every 15 minutes: one period spans a run.
    this.documentsAbandoned = alarm(
      'DocumentsAbandonedAlarm',
      'Library: the sweeper settled failed documents left processing (work lost beyond every retry)',
      serviceMetric(METRIC.documentsAbandoned, 15),
      1,
    );
  }
}
