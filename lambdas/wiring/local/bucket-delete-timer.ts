import type { BucketDeleteRetry } from '../../core/bucket/delete-retry.js';

/**
 * The local stack's retry of deletes owed to callers' buckets: a sweep now
 * (what a stop left), then one every `intervalMs`, never two at once. The
 * backlog is durable (SQLite), so nothing is lost across restarts.
 */
export class LocalBucketDeleteTimer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly retry: BucketDeleteRetry,
    private readonly intervalMs: number,
    private readonly log: (message: string, detail: Record<string, unknown>) => void,
  ) {}

  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.intervalMs);
    this.timer.unref();
  }

  /** One sweep (tests call it to retry at once); joins the one running. */
  sweep(): Promise<void> {
    this.running ??= this.retry
      .sweep()
      .then(
        (report) => {
          if (report.deleted || report.dropped) this.log('bucket deletes retried', { ...report });
        },
        (error) => this.log('bucket delete retry failed', { error: (error as Error).message }),
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
