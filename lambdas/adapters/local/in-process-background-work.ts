import type { BackgroundWork } from '../../core/ports.js';

/**
 * Background work in this process: a task starts at once and the request
 * answers without waiting for it. `settled()` waits for what is running
 * (tests, the benchmark, a graceful stop). After `close()` a failing task is
 * no longer reported: the process is going away, and what the task would
 * have written (a reply's vectors) is missing, as after a crash.
 */
export class InProcessBackgroundWork implements BackgroundWork {
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly report: (what: string, error: unknown) => void) {}

  async run(what: string, task: () => Promise<void>): Promise<void> {
    const done: Promise<void> = task()
      .catch((error: unknown) => {
        if (this.closed) return;
        try {
          this.report(what, error);
        } catch {
          // A reporter that fails must not take the process down with an unhandled rejection.
        }
      })
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  async settled(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  close(): void {
    this.closed = true;
  }
}
