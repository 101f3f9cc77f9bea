import type { UsageResponse } from '../../../../client/src/index.js';

/** The four figures GET /v1/usage counts, in the order the page shows them. */
export const METRICS = [
  { key: 'tokens_used', label: 'Tokens' },
  { key: 'chat_calls', label: 'Chat calls' },
  { key: 'ocr_pages', label: 'OCR pages' },
  { key: 'captures', label: 'Captures' },
] as const;

export type Metric = (typeof METRICS)[number]['key'];

/** "2025-06" -> "June 2025" (months are the service's: UTC). */
export function monthLabel(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** This month and the `count - 1` before it, newest first, as `YYYY-MM` values for a picker. */
export function recentMonths(now: Date, count = 12): { value: string; label: string }[] {
  const months: { value: string; label: string }[] = [];
  for (let back = 0; back < count; back += 1) {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const value = first.toISOString().slice(0, 7);
    months.push({ value, label: monthLabel(value) });
  }
  return months;
}

/** The `from` and `to` (inclusive days) of GET /v1/usage for a `YYYY-MM` month. */
export function monthRange(month: string): { from: string; to: string } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10);
  return { from: `${month}-01`, to: last };
}

/** Every day from `from` to `to`, with zeros where the answer lists no spend (it lists only days with some). */
export function everyDay(usage: UsageResponse): UsageResponse['days'] {
  const byDate = new Map(usage.days.map((day) => [day.date, day]));
  const days: UsageResponse['days'] = [];
  const end = Date.parse(`${usage.to}T00:00:00Z`);
  for (let at = Date.parse(`${usage.from}T00:00:00Z`); at <= end && days.length < 400; at += 86_400_000) {
    const date = new Date(at).toISOString().slice(0, 10);
    days.push(byDate.get(date) ?? { date, tokens_used: 0, chat_calls: 0, ocr_pages: 0, captures: 0 });
  }
  return days;
}

/**
 * A Vega-Lite spec of the usage: one chart of bars per figure, stacked, each
 * with its own scale (tokens run to thousands where captures run to tens),
 * days across; only the last one labels the days.
 */
export function usageSpec(usage: UsageResponse, width: number): object {
  const days = everyDay(usage);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    vconcat: METRICS.map(({ key, label }, index) => {
      const values = days.map((day) => ({ date: day.date, day: Number(day.date.slice(8)), value: day[key] }));
      const last = index === METRICS.length - 1;
      return {
        title: { text: label, anchor: 'start', fontSize: 13 },
        data: { values },
        width,
        height: 60,
        mark: { type: 'bar', tooltip: true },
        encoding: {
          x: {
            field: 'day',
            type: 'ordinal',
            title: last ? 'Day of the month' : null,
            axis: last ? { labelAngle: 0, labelOverlap: true } : { labels: false, ticks: false },
          },
          y: {
            field: 'value',
            type: 'quantitative',
            title: null,
            // A month of zeros still gets an axis from 0 to 1 (an empty domain draws as NaN).
            scale: { domain: [0, Math.max(1, ...values.map((v) => v.value))], nice: true },
            axis: { tickCount: 3, tickMinStep: 1, format: '~s' },
          },
          tooltip: [
            { field: 'date', type: 'nominal', title: 'Date' },
            { field: 'value', type: 'quantitative', title: label, format: ',' },
          ],
        },
      };
    }),
  };
}
