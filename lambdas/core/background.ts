import type { BackgroundWork } from '../ports.js';

/**
 * Background work done before the response: for a Lambda, which is frozen
 * once it has answered. A failure is reported, never the request's: what the
 * task would have added (a reply's vectors) is missing, nothing else.
 */
export function inlineBackgroundWork(report: (what: string, error: unknown) => void): BackgroundWork {
  return {
    async run(what, task) {
      try {
        await task();
      } catch (error) {
        report(what, error);
      }
    },
  };
}
