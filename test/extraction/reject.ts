import { expect } from 'vitest';
import { CaptureRejected } from '../../lambdas/core/errors.js';

/** Asserts the promise rejects with a CaptureRejected of this code. */
export async function expectReject(work: Promise<unknown>, code: string): Promise<void> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected a ${code} reject`).toBeInstanceOf(CaptureRejected);
  expect((error as CaptureRejected).rejectCode).toBe(code);
}
