import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageLedger } from '../../../lambdas/core/ports.js';
import { METRIC, METRICS_NAMESPACE, REJECT_CODE_DIMENSION } from '../../../lambdas/wiring/aws/metric-names.js';
import {
  countCapture,
  instrumented,
  meteredUsage,
  observeAbandoned,
  observeIngestOutcomes,
  withQueueMetrics,
} from '../../../lambdas/wiring/aws/observability.js';

/**
 * The AWS functions' metrics, read from what Powertools Metrics writes to
 * stdout (CloudWatch embedded metric format; the function's log group turns
 * it into metrics): names and dimensions the alarms (lib/) watch, published
 * when the invocation ends.
 */
interface Emf {
  _aws: {
    CloudWatchMetrics: Array<{
      Namespace: string;
      Dimensions: string[][];
      Metrics: Array<{ Name: string; Unit: string }>;
    }>;
  };
  [key: string]: unknown;
}
let emitted: Emf[] = [];

beforeEach(() => {
  emitted = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) {
      if (line.includes('"_aws"')) emitted.push(JSON.parse(line) as Emf);
    }
    return true;
  }) as typeof process.stdout.write);
});
afterEach(() => vi.restoreAllMocks());

/** The value of a metric over every EMF blob written (summed; a repeated metric is an array of values). */
function total(name: string, dimensions: Record<string, string> = {}): number {
  let sum = 0;
  for (const blob of emitted) {
    if (!blob._aws.CloudWatchMetrics.some((m) => m.Metrics.some((x) => x.Name === name))) continue;
    if (Object.entries(dimensions).some(([k, v]) => blob[k] !== v)) continue;
    const value = blob[name] as number | number[];
    sum += Array.isArray(value) ? value.reduce((a, b) => a + b, 0) : value;
  }
  return sum;
}

const context = { awsRequestId: 'lambda-req', functionName: 'capture' } as Context;

describe('metrics on AWS', () => {
  it('counts capture receipts by status, and rejections by code under the namespace and service the alarms watch', async () => {
    const handler = instrumented(async (_event: unknown, _context: Context) => {
      countCapture({ status: 'created', reject_code: null });
      countCapture({ status: 'deduped', reject_code: null });
      countCapture({ status: 'rejected', reject_code: 'backend_unavailable' });
      countCapture({ status: 'rejected', reject_code: 'unsupported_type' });
      return { statusCode: 200 };
    });
    await expect(handler({}, context)).resolves.toEqual({ statusCode: 200 });

    expect(total(METRIC.capturesCreated)).toBe(1);
    expect(total(METRIC.capturesDeduped)).toBe(1);
    expect(total(METRIC.capturesRejected)).toBe(2);
    expect(total(METRIC.captureRejections, { [REJECT_CODE_DIMENSION]: 'backend_unavailable' })).toBe(1);
    expect(total(METRIC.captureRejections, { [REJECT_CODE_DIMENSION]: 'unsupported_type' })).toBe(1);
    for (const blob of emitted) {
      for (const set of blob._aws.CloudWatchMetrics) {
        expect(set.Namespace).toBe(METRICS_NAMESPACE);
        expect(set.Dimensions[0]).toContain('service');
      }
      expect(blob.service).toBe('library');
    }
  });

  it('publishes what an invocation stored even when it fails, and nothing (not even a warning) when it stored nothing', async () => {
    const failing = instrumented(async (_event: unknown, _context: Context) => {
      countCapture({ status: 'created', reject_code: null });
      throw new Error('boom');
    });
    await expect(failing({}, context)).rejects.toThrow('boom');
    expect(total(METRIC.capturesCreated)).toBe(1);

    emitted = [];
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await instrumented(async (_event: unknown, _context: Context) => 'quiet')({}, context);
    expect(emitted).toEqual([]);
    expect(warn.mock.calls.map(String).join('')).not.toContain('No application metrics');
  });

  it('counts tokens, chat calls and OCR pages once the ledger recorded them', async () => {
    const added: unknown[] = [];
    const ledger: UsageLedger = { add: async (...args) => void added.push(args), days: async () => [] };
    const handler = instrumented(async (_event: unknown, _context: Context) => {
      await meteredUsage(ledger).add('ten_1', '2026-01-01', {
        tokensUsed: 120,
        chatCalls: 1,
        ocrPages: 3,
        captures: 1,
      });
      await meteredUsage(ledger).add('ten_1', '2026-01-01', { tokensUsed: 30, chatCalls: 0, ocrPages: 0, captures: 1 });
    });
    await handler({}, context);
    expect(added).toHaveLength(2);
    expect(total(METRIC.tokensUsed)).toBe(150);
    expect(total(METRIC.chatCalls)).toBe(1);
    expect(total(METRIC.ocrPages)).toBe(3);

    emitted = [];
    const broken: UsageLedger = {
      add: async () => {
        throw new Error('ledger down');
      },
      days: async () => [],
    };
    await expect(
      instrumented(async (_e: unknown, _c: Context) =>
        meteredUsage(broken).add('t', 'd', { tokensUsed: 5, chatCalls: 0, ocrPages: 0, captures: 0 }),
      )({}, context),
    ).rejects.toThrow();
    expect(total(METRIC.tokensUsed)).toBe(0);
  });

  it('counts ingest outcomes (ready, unreadable, given up), queue age, retries, dropped messages and abandoned documents', async () => {
    const worker = observeIngestOutcomes({
      runToCompletion: async () => ({ outcome: 'ready' as const }),
      fail: async (_doc: unknown, reason: string) => ({ outcome: 'failed' as const, reason }),
    });
    const sentAgo = (ms: number) => String(Date.now() - ms);
    const event = {
      Records: [
        {
          messageId: 'a',
          body: JSON.stringify({ tenantId: 't', endUserId: null, documentId: 'd1' }),
          attributes: { SentTimestamp: sentAgo(5_000) },
        },
        { messageId: 'b', body: 'not json', attributes: { SentTimestamp: sentAgo(60_000) } },
      ],
    } as unknown as SQSEvent;
    const parse = (body: string) => {
      try {
        return JSON.parse(body) as unknown;
      } catch {
        return null;
      }
    };
    const handler = instrumented(
      withQueueMetrics(async () => {
        await worker.runToCompletion();
        await worker.fail({} as never, 'backend_unavailable: indexing gave up after repeated failures (throttled)');
        await worker.fail({} as never, 'extraction_failed: the stored file is missing');
        return { batchItemFailures: [{ itemIdentifier: 'a' }] };
      }, parse),
    );
    await handler(event, context);

    expect(total(METRIC.ingestReady)).toBe(1);
    expect(total(METRIC.ingestGaveUp)).toBe(1);
    expect(total(METRIC.ingestUnreadable)).toBe(1);
    expect(total(METRIC.ingestRetried)).toBe(1);
    expect(total(METRIC.ingestDropped)).toBe(1);
    const ages = emitted.flatMap((b) =>
      b[METRIC.ingestQueueAge] === undefined ? [] : [b[METRIC.ingestQueueAge]].flat(),
    ) as number[];
    expect(ages).toHaveLength(2);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(...ages)).toBeLessThan(70_000);
    const unit = emitted
      .flatMap((b) => b._aws.CloudWatchMetrics.flatMap((m) => m.Metrics))
      .find((m) => m.Name === METRIC.ingestQueueAge)?.Unit;
    expect(unit).toBe('Milliseconds');

    emitted = [];
    const sweeper = observeAbandoned({ fail: async (_doc: unknown, _reason: string) => ({ outcome: 'failed' }) });
    await instrumented(async (_e: unknown, _c: Context) => {
      await sweeper.fail({} as never, 'backend_unavailable: indexing did not finish');
      await sweeper.fail({} as never, 'backend_unavailable: indexing did not finish');
    })({}, context);
    expect(total(METRIC.documentsAbandoned)).toBe(2);
  });
});
