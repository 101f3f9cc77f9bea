import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteUsageLedger } from '../../lambdas/adapters/local/sqlite-usage-ledger.js';
import { isCalendarDate } from '../../lambdas/core/dates.js';
import { DomainError } from '../../lambdas/core/errors.js';
import { resolveRange, UsageService } from '../../lambdas/core/usage.js';

describe('usage dates', () => {
  it('knows a real calendar date', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
  });

  it('defaults to the current month, or the month of the one date given', () => {
    expect(resolveRange('2026-11-22')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(resolveRange('2026-11-22', '2024-02-10')).toEqual({ from: '2024-02-10', to: '2024-02-29' });
    expect(resolveRange('2026-11-22', undefined, '2026-12-05')).toEqual({ from: '2026-12-01', to: '2026-12-05' });
    expect(resolveRange('2026-11-22', '2026-01-01', '2026-12-31')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('refuses an inverted range or a bad date as invalid_request naming the field', () => {
    const error = (() => {
      try {
        resolveRange('2026-11-22', '2026-05-02', '2026-05-01');
      } catch (e) {
        return e as DomainError;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'invalid_request', message: 'from: must not be after to' });
    expect(() => resolveRange('2026-11-22', undefined, '2026-02-30')).toThrow(/^to: /);
  });
});

describe('UsageService over the SQLite ledger', () => {
  it('adds captures, OCR pages, chat calls and tokens per tenant per day', async () => {
    let now = '2026-11-21T23:59:59.000000';
    const usage = new UsageService({
      usage: new SqliteUsageLedger(openDatabase(':memory:')),
      clock: { now: () => now },
    });
    await usage.recordCapture({ tenantId: 'ten_a', at: '2026-11-21T10:00:00.000000', ocrPages: 3 });
    await usage.recordEmbedding({ tenantId: 'ten_a', at: '2026-11-21T10:00:01.000000', tokens: 7 }); // as the embedder reported
    await usage.recordEmbedding({ tenantId: 'ten_a', at: '2026-11-21T10:00:02.000000', tokens: 0 }); // nothing read: no change
    await usage.recordChat('ten_a', '2026-11-21T11:00:00.000000', 100);
    await usage.recordChat('ten_a', '2026-11-22T00:00:01.000000', 50);
    await usage.recordChat('ten_b', '2026-11-21T11:00:00.000000', 999);
    const captureTokens = 7;

    now = '2026-11-22T08:00:00.000000';
    const report = await usage.report('ten_a', {});
    expect(report).toEqual({
      tenant_id: 'ten_a',
      from: '2026-11-01',
      to: '2026-11-30',
      tokens_used: captureTokens + 150,
      chat_calls: 2,
      ocr_pages: 3,
      captures: 1,
      days: [
        { date: '2026-11-21', tokens_used: captureTokens + 100, chat_calls: 1, ocr_pages: 3, captures: 1 },
        { date: '2026-11-22', tokens_used: 50, chat_calls: 1, ocr_pages: 0, captures: 0 },
      ],
    });
    expect((await usage.report('ten_a', { from: '2026-11-22', to: '2026-11-22' })).tokens_used).toBe(50);
    expect((await usage.report('ten_b', {})).chat_calls).toBe(1);
    expect((await usage.report('ten_c', {})).days).toEqual([]);
  });
});
