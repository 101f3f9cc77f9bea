import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleHarness,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/** The Usage page: a month's tokens, chat calls, OCR pages and captures per day as a chart, and its totals as text. */
describe('usage in the web console', () => {
  let harness: ConsoleHarness;
  let key: string;

  beforeAll(async () => {
    harness = await startConsoleHarness({ embedder: new HashingEmbedder() });
    key = await harness.server.newKey('console-usage');
    for (const [text, endUser] of [
      ['The lighthouse keeper logs the fog horn hours.', undefined],
      ['The harbour master counts boats at dawn.', undefined],
      ['A private note about the lighthouse.', 'dora'],
    ] as const) {
      const res = await harness.server.api('/v1/capture', {
        key,
        body: { text, ...(endUser ? { end_user_id: endUser } : {}) },
      });
      expect(res.status).toBe(201);
    }
    const chat = await harness.server.api('/v1/chat', { key, body: { question: 'Who logs the fog horn hours?' } });
    expect(chat.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  const monthName = (back: number) => {
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return {
      label: first.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
      from: first.toISOString().slice(0, 10),
      to: new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).toISOString().slice(0, 10),
    };
  };

  /** The totals table's figures, by row name. */
  const totals = async (page: Page, month: string) => {
    const table = page.getByRole('table', { name: `Totals for ${month}` });
    await table.waitFor();
    const rows = await table
      .getByRole('row')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '']),
      );
    return Object.fromEntries(rows.map(([name, value]) => [name, Number(String(value).replace(/,/g, ''))]));
  };

  const chartDrawn = async (page: Page) => {
    const svg = page.locator('[data-chart="vega-lite"] svg');
    await svg.waitFor();
    // One row of bars per figure, each named.
    const words = await svg.textContent();
    for (const name of ['Tokens', 'Chat calls', 'OCR pages', 'Captures']) expect(words).toContain(name);
    expect(await page.locator('[data-chart="vega-lite"] svg path[aria-roledescription="bar"]').count()).toBeGreaterThan(
      0,
    );
  };

  it("shows this month per day as a chart, with totals that are the API's", async () => {
    const { page, outside } = await harness.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, harness.server, key);
    await openPage(page, 'Usage');
    await page.getByRole('heading', { name: 'Usage', level: 2 }).waitFor();
    const month = monthName(0);
    expect(await page.getByRole('combobox', { name: 'Month' }).inputValue()).toBe(month.label);
    const shown = await totals(page, month.label);
    await chartDrawn(page);

    const api = await harness.server.api('/v1/usage', { key });
    expect(api.status).toBe(200);
    expect(api.body.captures).toBe(3);
    expect(api.body.chat_calls).toBe(1);
    expect(shown).toEqual({
      Tokens: api.body.tokens_used,
      'Chat calls': api.body.chat_calls,
      'OCR pages': api.body.ocr_pages,
      Captures: api.body.captures,
    });
    // The days with use, as numbers too.
    const days = page.getByRole('table', { name: `Days with use in ${month.label}` });
    for (const day of api.body.days as { date: string; captures: number }[]) {
      const cells = await days
        .getByRole('row', { name: new RegExp(`^${day.date}`) })
        .getByRole('cell')
        .allTextContents();
      expect(cells.at(-1)).toBe(String(day.captures));
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'usage');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('picks another month: its (empty) totals, still a chart', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Usage');
    const previous = monthName(1);
    await page.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: previous.label, exact: true }).click();
    const shown = await totals(page, previous.label);
    const api = await harness.server.api(`/v1/usage?from=${previous.from}&to=${previous.to}`, { key });
    expect(shown).toEqual({
      Tokens: api.body.tokens_used,
      'Chat calls': api.body.chat_calls,
      'OCR pages': api.body.ocr_pages,
      Captures: api.body.captures,
    });
    expect(shown.Captures).toBe(0);
    await page.getByText(`Nothing was used in ${previous.label}.`).waitFor();
    await chartDrawn(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'usage-previous-month');
  });

  it('works on a phone', async () => {
    const { page } = await harness.newPage({ phone: true });
    await signIn(page, harness.server, key);
    await page.getByRole('button', { name: 'Navigation' }).click();
    await openPage(page, 'Usage');
    await chartDrawn(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'usage-phone');
  });
});
