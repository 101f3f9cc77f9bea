import { describe, expect, it } from 'vitest';
import { HAMMING_KERNEL_WASM } from '../../lambdas/adapters/local/hamming-kernel.js';
import { compileKernel } from '../../scripts/hamming-kernel.js';

describe('the bit-code scan kernel', () => {
  it('is the compiled hamming-kernel.wat: the bytes the service loads were built from the source beside them', async () => {
    expect(HAMMING_KERNEL_WASM).toBe(await compileKernel());
  });

  it('is refused by the compiler when its text is not valid WebAssembly', async () => {
    await expect(compileKernel('(module (func (export "distances") (result i32)))')).rejects.toThrow();
  });
});
