import { CaptureRejected } from '../../core/errors.js';

/** The per-file time budget: checked between steps, and an AbortSignal for steps that can be cut short. */
export class Deadline {
  private readonly endsAt: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.endsAt = now() + budgetMs;
    this.timer = setTimeout(() => this.controller.abort(this.error()), budgetMs);
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Throws the budget's reject when the time is up. */
  check(): void {
    if (this.controller.signal.aborted || this.now() >= this.endsAt) throw this.error();
  }

  /** Settles with `work`, or rejects as soon as the budget runs out. */
  race<T>(work: Promise<T>): Promise<T> {
    this.check();
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.error());
      this.signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private error(): CaptureRejected {
    return new CaptureRejected(
      'too_large',
      `the file needs more than the ${Math.round(this.budgetMs / 1000)} s extraction time budget`,
    );
  }
}
