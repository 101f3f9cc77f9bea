import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citationSources, markerLine } from '../../console/src/components/ask/citations.js';
import { FALCON, REVENUE, SOURDOUGH } from '../support/chat-notes.js';
import {
  type ConsoleHarness,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';

/** The Chat page in a real browser against the real local server and its offline answerer. */
let harness: ConsoleHarness;
let key: string;
const ids: Record<string, string> = {};

/** Captures a text and waits until it is findable by meaning (status ready). */
const capture = (text: string, title: string): Promise<string> => harness.server.captureReady(key, { text, title });

beforeAll(async () => {
  harness = await startConsoleHarness();
  key = await harness.server.newKey('console-chat');
  ids.falcon = await capture(FALCON, 'Falcon status');
  ids.revenue = await capture(REVENUE, 'Revenue 2026');
  ids.sourdough = await capture(SOURDOUGH, 'Sourdough');
}, 180_000);
afterAll(async () => {
  await harness?.close();
});

const isChat = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/v1/chat';

/** Asks a question with the "Question" box and the "Ask" button; resolves to the chat request sent and the answered turn. */
async function ask(page: Page, question: string) {
  const sent = page.waitForRequest(isChat);
  const answered = page.waitForResponse((response) => isChat(response.request()));
  await page.getByRole('textbox', { name: 'Question' }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
  const request = await sent;
  const response = await answered;
  const turn = page.getByRole('list', { name: 'Conversation' }).getByRole('listitem').filter({ hasText: question });
  await turn.and(page.locator('[data-turn="done"]')).waitFor();
  return { turn, body: JSON.parse(request.postData() ?? '{}') as Record<string, unknown>, response };
}

describe('the Chat page', () => {
  it('streams an answer with numbered citations that open the cited lines, and a numbered source list', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Chat');
    await page.getByRole('heading', { name: 'Chat', level: 2 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const { turn, body, response } = await ask(page, 'When is the Falcon launch now?');
    // The reply came as server-sent events (the client's chatStream), in a new conversation.
    expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);
    expect(body).toEqual({ question: 'When is the Falcon launch now?' });
    expect(await turn.textContent()).toContain('14 March 2027');
    const citation = turn.getByRole('link', { name: /^\[1\] Falcon status, lines? 3/ });
    expect(await citation.textContent()).toBe('[1]');
    expect(await citation.getAttribute('href')).toBe(`#/documents/${ids.falcon}?line=3`);
    const sources = turn.getByRole('region', { name: 'Sources' });
    const source = sources.getByRole('link', { name: /^Source 1: Falcon status, lines? 3/ });
    expect(await source.getAttribute('href')).toBe(`#/documents/${ids.falcon}?line=3`);
    expect(await sources.textContent()).toContain('3: The Falcon launch moved to 14 March 2027');
    expect(await turn.textContent()).toMatch(/\b\d+ tokens/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'chat-answer');

    // The citation opens the cited lines; Back finds the conversation as it was.
    await citation.click();
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/documents/${ids.falcon}?line=3`);
    await page.goBack();
    await turn.getByRole('link', { name: /^\[1\] Falcon status/ }).waitFor();
    expect(outside).toEqual([]);
  });

  it('goes on in the same conversation until "New conversation"', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Chat');

    const first = await ask(page, 'When is the Falcon launch now?');
    const conversation = /"conversation_id":"(cnv_[0-9A-Z]{26})"/.exec(await first.response.text())?.[1];
    expect(conversation).toBeTruthy();

    const followUp = await ask(page, 'Who leads it?');
    expect(followUp.body.conversation_id).toBe(conversation);
    expect(await followUp.turn.textContent()).toContain('Ingrid Solberg');
    // Both turns are shown, in order.
    const turns = page.locator('[data-turn]');
    expect(await turns.count()).toBe(2);
    expect(await turns.first().textContent()).toContain('When is the Falcon launch now?');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'chat-conversation');

    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await turns.count()).toBe(0);
    const fresh = await ask(page, 'How often do I feed the sourdough starter?');
    expect(fresh.body).not.toHaveProperty('conversation_id');
    expect(await fresh.turn.textContent()).toContain('twice a day');
  });

  it('makes a table and draws a chart from the cited facts', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Chat');

    const { turn } = await ask(page, 'Make a table of the quarterly revenue');
    const table = turn.getByRole('table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(4);
    expect(await rows.first().locator('td').allTextContents()).toEqual(
      expect.arrayContaining(['Q1', '120', expect.stringContaining('Revenue 2026')]),
    );
    expect(await table.locator('caption').textContent()).toBeTruthy();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'chat-table');

    const chart = await ask(page, 'Draw a bar chart of the quarterly revenue');
    const figure = chart.turn.locator('[data-chart="vega-lite"]');
    await figure.locator('svg').first().waitFor();
    expect(await figure.getAttribute('aria-label')).toMatch(/^Chart: /);
    // Four bars, one a quarter.
    await expect.poll(() => figure.locator('svg .mark-rect path').count()).toBe(4);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'chat-chart');
  });

  it('says when the library does not hold the answer, with no sources', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Chat');
    const { turn } = await ask(page, 'What is the capital of Peru?');
    expect(await turn.textContent()).toMatch(/does not hold the answer/);
    expect(await turn.getByText('Not in your library').count()).toBe(1);
    expect(await turn.getByRole('region', { name: 'Sources' }).count()).toBe(0);
    expect(await turn.getByRole('link').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'chat-not-held');
  });

  it('shows a failed chat in words with its request id', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Chat');
    // A question over the contract's 4000 characters, past the box's own limit: the API's 422.
    await page.getByRole('textbox', { name: 'Question' }).evaluate((box) => box.removeAttribute('maxlength'));
    await page.getByRole('textbox', { name: 'Question' }).fill('why '.repeat(1001));
    await page.getByRole('button', { name: 'Ask' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/422/);
    expect(await alert.textContent()).toMatch(/question/);
    expect(await alert.textContent()).toMatch(/Request id: \S+/);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('the Chat page on a phone', () => {
  it('asks and shows a table that scrolls sideways within the page', async () => {
    const { page } = await harness.newPage({ phone: true });
    await signIn(page, harness.server, key);
    await page.getByRole('button', { name: 'Navigation' }).click();
    await openPage(page, 'Chat');
    const { turn } = await ask(page, 'Make a table of the quarterly revenue');
    await turn.getByRole('table').waitFor();
    // Nothing wider than the phone's screen but the table's own scroll container.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'chat-table-phone');
  });
});

describe('citation numbers (a marker opens the source the service says it cites)', () => {
  const source = (file_id: string, markers: { marker: number; lines: number[] }[]) => ({
    kind: 'file' as const,
    title: file_id,
    snippet: markers.flatMap((m) => m.lines.map((line) => `${line}: text`)).join('\n'),
    file_id,
    metadata: {},
    markers,
  });

  it('maps each marker to its source by the markers each source lists, whatever their order in the reply', () => {
    const sources = [
      source('file_b', [{ marker: 3, lines: [7] }]),
      source('file_a', [
        { marker: 1, lines: [2] },
        { marker: 2, lines: [9] },
      ]),
    ];
    expect([...citationSources(sources)].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 1],
      [2, 1],
      [3, 0],
    ]);
    // A marker no source lists is not mapped: the page shows it as written rather than linking a wrong source.
    expect(citationSources(sources).has(4)).toBe(false);
    expect(markerLine(sources[1]!, [2])).toBe(9);
  });
});
