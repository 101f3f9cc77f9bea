import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexWords } from '../../lambdas/core/document-indexing.js';
import { claimDocument } from '../../lambdas/core/document-record.js';
import { openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { textPushRecord } from '../support/text-records.js';

const dataDir = mkdtempSync(join(tmpdir(), 'library-replace-race-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('two replacements of one source_ref whose claims land out of order', () => {
  it('leaves only the newer one: an older replacement claimed after the newer one replaced goes once it is indexed', async () => {
    const stack = await openLocalStack({ dataDir, embedder: new HashingEmbedder() });
    try {
      const ref = { tenantId: 'ten_race', endUserId: 'u' };
      const original = await stack.services.capture.capture(ref, { text: 'report v1 apricot', sourceRef: 'r.md' });
      // The older request (a file: its bytes are stored before its claim) began first...
      const text = 'report v2 blueberry';
      const older = textPushRecord(ref, text, { sourceRef: 'r.md', replaceSourceRef: true }, stack.ports.clock.now());
      await new Promise((resolve) => setTimeout(resolve, 5));
      // ...the newer one came after it, and replaced what it could see, before the older one was claimed.
      const newer = await stack.services.capture.capture(ref, {
        text: 'report v3 cherry',
        sourceRef: 'r.md',
        replaceSourceRef: true,
      });
      expect(newer.detail).toMatch(/replaced 1 older document/);
      const claim = await claimDocument({ ...stack.ports }, older, null);
      if (!claim.claimed) throw new Error('the older request must claim');
      const known = { text, kind: 'text' as const, contentType: older.contentType, pageCount: null, ocrPages: 0 };
      const indexed = await indexWords(
        { ...stack.ports, spend: stack.services.usage },
        older,
        known,
        stack.ports.clock.now(),
        claim.generation,
      );
      expect(indexed).toBeNull(); // superseded: gone, as if deleted
      await stack.settled();

      const listed = (await stack.services.documents.list(ref, { limit: 10, sourceRef: 'r.md' })).items;
      expect(listed.map((d) => d.id)).toEqual([newer.id]);
      const grep = async (pattern: string) =>
        (await stack.services.grep.grep(ref, { pattern, caseSensitive: false, limit: 5 })).items.map((r) => r.file_id);
      expect(await grep('report')).toEqual([newer.id]);
      expect(await stack.ports.documents.get(ref, older.id)).toBeNull();
      expect(original.id).not.toBe(newer.id);
    } finally {
      stack.close();
    }
  });
});
