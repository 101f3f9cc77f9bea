/**
 * The service's CloudWatch metrics (Powertools Metrics, embedded metric
 * format in each function's log; no PutMetricData call, no extra grant).
 * Pure data, shared by the functions that emit them (observability.ts) and
 * the stack that sets alarms on them (lib/constructs/service-alarms.ts), so
 * an alarm can never watch a name nothing emits.
 */
export const METRICS_NAMESPACE = 'Library';
/** Every metric carries it (Powertools' default dimension `service`, from POWERTOOLS_SERVICE_NAME). */
export const METRICS_SERVICE = 'library';

export const METRIC = {
  /** Capture receipts by status (one metric each, so each sums without metric math). */
  capturesCreated: 'CapturesCreated',
  capturesDeduped: 'CapturesDeduped',
  capturesRejected: 'CapturesRejected',
  /** Rejected captures by rejection code (dimension `RejectCode`): backend_unavailable is the service's failure. */
  captureRejections: 'CaptureRejections',
  /** Spend as the usage ledger records it. */
  tokensUsed: 'TokensUsed',
  chatCalls: 'ChatCalls',
  ocrPages: 'OcrPages',
  /** Ingest jobs: how long a message waited in the queue before this delivery (ms). */
  ingestQueueAge: 'IngestQueueAge',
  ingestReady: 'IngestReady',
  /** A file that cannot be read ended `failed` (the caller's file, not the service). */
  ingestUnreadable: 'IngestUnreadable',
  /** A document ended `failed` because its backend never recovered (the service's failure). */
  ingestGaveUp: 'IngestGaveUp',
  /** Jobs handed back to SQS for another delivery. */
  ingestRetried: 'IngestRetried',
  /** Malformed messages dropped. */
  ingestDropped: 'IngestDropped',
  /** Documents the sweeper settled `failed`: work lost beyond every retry. */
  documentsAbandoned: 'DocumentsAbandoned',
} as const;

export const REJECT_CODE_DIMENSION = 'RejectCode';
