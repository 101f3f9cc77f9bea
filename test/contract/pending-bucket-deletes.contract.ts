import { describe, expect, it } from 'vitest';
import type { PendingBucketDeletes } from '../../lambdas/core/ports.js';

const unique = (what: string) => `${what}_${Math.random().toString(36).slice(2, 10)}`;
/** Times in the contract's format (six fractional digits, no zone), minute by minute. */
const at = (minute: number) => `2026-11-24T03:${String(minute).padStart(2, '0')}:00.000000`;

/** The PendingBucketDeletes contract: every adapter (SQLite, DynamoDB) passes these. */
export function pendingBucketDeletesContract(name: string, makeStore: () => Promise<PendingBucketDeletes>) {
  describe(`PendingBucketDeletes contract: ${name}`, () => {
    it('adds idempotently, lists what is due oldest first up to the limit, and counts per tenant', async () => {
      const store = await makeStore();
      const a = unique('ten');
      const b = unique('ten');
      await store.add([
        { tenantId: a, blobKey: 'bucket:loc:library/shared/f1', since: at(0), nextAttemptAt: at(3) },
        { tenantId: a, blobKey: 'bucket:loc:library/shared/f2', since: at(0), nextAttemptAt: at(1) },
        { tenantId: b, blobKey: 'bucket:loc:library/shared/f1', since: at(0), nextAttemptAt: at(2) },
        { tenantId: a, blobKey: 'bucket:loc:library/shared/later', since: at(0), nextAttemptAt: at(30) },
      ]);
      // Added again (a retried delete): one entry, its history kept.
      await store.add([{ tenantId: a, blobKey: 'bucket:loc:library/shared/f2', since: at(5), nextAttemptAt: at(9) }]);
      expect(await store.count(a)).toBe(3);
      expect(await store.count(b)).toBe(1);
      expect(await store.count(unique('ten'))).toBe(0);

      const due = (await store.due(at(3), 10)).filter((d) => d.tenantId === a || d.tenantId === b);
      expect(due.map((d) => [d.tenantId, d.blobKey])).toEqual([
        [a, 'bucket:loc:library/shared/f2'],
        [b, 'bucket:loc:library/shared/f1'],
        [a, 'bucket:loc:library/shared/f1'],
      ]);
      expect(due[0]).toEqual({
        tenantId: a,
        blobKey: 'bucket:loc:library/shared/f2',
        since: at(0),
        attempts: 0,
        lastError: null,
        nextAttemptAt: at(1),
      });
      expect((await store.due(at(3), 2)).length).toBeLessThanOrEqual(2);
      expect((await store.due(at(0), 10)).filter((d) => d.tenantId === a || d.tenantId === b)).toEqual([]);
    });

    it('counts a failed attempt, keeps its reason and puts the entry off; removes one entry or a whole tenant', async () => {
      const store = await makeStore();
      const a = unique('ten');
      const b = unique('ten');
      await store.add([
        { tenantId: a, blobKey: 'k1', since: at(0), nextAttemptAt: at(1) },
        { tenantId: a, blobKey: 'k2', since: at(0), nextAttemptAt: at(1) },
        { tenantId: b, blobKey: 'k1', since: at(0), nextAttemptAt: at(1) },
      ]);
      await store.retryLater(a, 'k1', 'denied: AccessDenied (HTTP 403)', at(20));
      await store.retryLater(a, 'k1', 'unreachable: ETIMEDOUT', at(40));
      const mine = (now: string) => store.due(now, 50).then((all) => all.filter((d) => d.tenantId === a));
      expect((await mine(at(10))).map((d) => d.blobKey)).toEqual(['k2']);
      expect((await mine(at(40))).find((d) => d.blobKey === 'k1')).toEqual({
        tenantId: a,
        blobKey: 'k1',
        since: at(0),
        attempts: 2,
        lastError: 'unreachable: ETIMEDOUT',
        nextAttemptAt: at(40),
      });
      // Retrying an entry that went meanwhile brings nothing back.
      await store.retryLater(a, 'gone', 'x', at(5));
      expect(await store.count(a)).toBe(2);

      await store.remove(a, 'k2');
      await store.remove(a, 'never-added');
      expect(await store.count(a)).toBe(1);
      expect(await store.removeTenant(a)).toBe(1);
      expect(await store.count(a)).toBe(0);
      expect((await mine(at(59))).length).toBe(0);
      expect(await store.count(b)).toBe(1);
      expect(await store.removeTenant(unique('ten'))).toBe(0);
    });
  });
}
