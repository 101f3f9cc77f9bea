import { describe, expect, it } from 'vitest';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { coreHarness } from '../support/core-harness.js';
import { Gate, gatedEmbedder } from '../support/gated.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

const ref: LibraryRef = { tenantId: 'ten_inline', endUserId: null };

describe('a single capture embeds within its request only when the embedder has nothing else to do', () => {
  it('a capture arriving while another embeds inline is queued and answers at once; both become ready', async () => {
    const gate = new Gate();
    const h = coreHarness({ embedder: gatedEmbedder(new HashingEmbedder(), gate) });
    const first = h.services.capture.capture(ref, { text: 'the first note is about herons' }, { interactive: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gate.held).toBe(1); // the first is embedding inline, held at the gate

    const started = Date.now();
    const second = await h.services.capture.capture(
      ref,
      { text: 'the second note is about otters' },
      { interactive: true },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(second).toMatchObject({ ok: true, status: 'created' });
    expect(second.detail).toMatch(/by meaning once its passages are embedded/);
    expect(await h.services.documents.get(ref, second.id!)).toMatchObject({
      status: 'processing',
      findable_by_words: true,
    });

    gate.open();
    expect((await first).detail).toMatch(/findable by words and by meaning/);
    await h.drain.whenIdle();
    expect(await h.services.documents.get(ref, second.id!)).toMatchObject({
      status: 'ready',
      findable_by_meaning: true,
    });

    // Idle again: the next single capture is embedded within its request.
    const third = await h.services.capture.capture(
      ref,
      { text: 'the third note is about badgers' },
      { interactive: true },
    );
    expect(third.detail).toMatch(/findable by words and by meaning/);
  });
});
