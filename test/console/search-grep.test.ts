import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleHarness,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';

/** The Search and Grep pages in a real browser against the real local server: what they show and where their links go. */
let harness: ConsoleHarness;
beforeAll(async () => {
  harness = await startConsoleHarness();
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

/** Captures a text into a library and waits until it is findable by meaning (status ready). */
const capture = (
  key: string,
  item: { text: string; title: string; source_ref?: string; end_user_id?: string },
): Promise<string> => harness.server.captureReady(key, item);

// The Falcon paragraph is the document's second passage: it starts at line 5.
const HARBOUR = `Harbour office notes

The harbour office opens at seven in the morning on weekdays and at nine on Saturdays. Visitors sign in at the gate, collect a pass from the front desk and wait in the lobby until a member of staff comes to fetch them. Parking is behind the warehouse, next to the old crane.

Project Falcon
The Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells.
The team lead is Ingrid Solberg; she reports to the CTO every Friday.`;

const WORKTOPS =
  'Three quotes for the kitchen worktops: Stone Masters £2,400, WorktopExpress £1,850, local carpenter £2,100 (wood, not quartz). Going with WorktopExpress.';

const SOURDOUGH = `Sourdough notes
Feed the starter twice a day with equal weights of flour and water.
Bake the loaf at 240 degrees for 20 minutes with the lid on, then 25 minutes without it.`;

const HERON = `Heron field notes
The grey heron nests in colonies near the lake from February to June.`;

describe('the Search page', () => {
  let key: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    key = await harness.server.newKey('console-search');
    ids.harbour = await capture(key, { text: HARBOUR, title: 'Harbour and Falcon', source_ref: 'notes/harbour.txt' });
    ids.worktops = await capture(key, { text: WORKTOPS, title: 'Kitchen quotes', source_ref: 'notes/kitchen.txt' });
    ids.sourdough = await capture(key, { text: SOURDOUGH, title: 'Sourdough', source_ref: 'recipes/sourdough.txt' });
    ids.heron = await capture(key, { text: HERON, title: 'Heron notes', end_user_id: 'ask-reader' });
  }, 180_000);

  it('finds a document asked in other words, with its score, the shared words marked, and a link to its lines', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Search');
    await page.getByRole('heading', { name: 'Search', level: 2 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('textbox', { name: 'Search' }).fill('When will Falcon go on sale?');
    await page.getByRole('textbox', { name: 'Search' }).press('Enter');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.waitFor();
    const first = results.getByRole('listitem').first();
    expect(await first.getAttribute('data-result-id')).toBe(ids.harbour);
    expect(await first.textContent()).toMatch(/Score 0\.\d\d|Score 1\.00/);
    expect(Number(await first.locator('[data-score]').getAttribute('data-score'))).toBeGreaterThan(0);
    expect(await first.locator('mark.hit').allTextContents()).toContain('Falcon');
    // The snippet is the Falcon passage, which starts at line 5: the link opens the document there, marking the
    // passage's lines as the service reports them.
    const asked = await harness.server.api(`/v1/search?q=${encodeURIComponent('When will Falcon go on sale?')}`, {
      key,
    });
    const passage = asked.body.results.find((r: { id: string }) => r.id === ids.harbour);
    expect(passage.line_start).toBe(5);
    expect(passage.line_end).toBeGreaterThanOrEqual(6);
    const at = `#/documents/${ids.harbour}?line=5&to=${passage.line_end}`;
    const link = first.getByRole('link', { name: 'Harbour and Falcon' });
    await expect.poll(() => link.getAttribute('href')).toBe(at);
    // The address holds the query: the search is one Back away.
    expect(page.url()).toContain('#/search?q=When+will+Falcon+go+on+sale%3F');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'search-results');

    await link.click();
    await expect.poll(() => new URL(page.url()).hash).toBe(at);
    await page.goBack();
    await results.getByRole('listitem').first().waitFor();
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('When will Falcon go on sale?');
    expect(outside).toEqual([]);
  });

  it('marks a result found by its words, and keeps only the kinds checked', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Search');
    await page.getByRole('textbox', { name: 'Search' }).fill('WorktopExpress');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    const first = results.getByRole('listitem').first();
    await first.waitFor();
    expect(await first.getAttribute('data-result-id')).toBe(ids.worktops);
    expect(await first.getByText('Found by keyword').count()).toBe(1);
    expect(await first.locator('mark.hit').allTextContents()).toEqual(['WorktopExpress', 'WorktopExpress']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'search-keyword');

    // Only chats: the search asks for that kind, and the library holds no chat yet.
    for (const kind of ['Documents', 'Images', 'Creations']) await page.getByRole('checkbox', { name: kind }).uncheck();
    const kindAsked = () => new URL(page.url().replace('#', '')).searchParams.get('kind');
    await expect.poll(kindAsked).toBe('chat');
    await page.getByText('Nothing found.').waitFor();
    expect(await results.count()).toBe(0);
    // Documents again: the result is back.
    await page.getByRole('checkbox', { name: 'Documents' }).check();
    await results.getByRole('listitem').first().waitFor();
    expect(await results.getByRole('listitem').first().getAttribute('data-result-id')).toBe(ids.worktops);
  });

  it("follows the chosen end user: that library's documents and no other's", async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Search');
    await page.getByRole('textbox', { name: 'Search' }).fill('grey heron nests');
    await page.getByRole('textbox', { name: 'Search' }).press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /result|Nothing found/ })
      .waitFor();
    const shown = () =>
      page.locator('[data-result-id]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-result-id')));
    expect(await shown()).not.toContain(ids.heron);

    const request = page.waitForRequest((r) => r.url().includes('/v1/search?') && r.url().includes('end_user_id='));
    await page.getByRole('combobox', { name: 'End user' }).fill('ask-reader');
    await page.getByRole('combobox', { name: 'End user' }).press('Enter');
    expect(new URL((await request).url()).searchParams.get('end_user_id')).toBe('ask-reader');
    await expect.poll(shown).toEqual([ids.heron]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

// 70 lines: the odd ones say LANTERN, the even ones lantern.
const LANTERNS = Array.from({ length: 70 }, (_, i) =>
  i % 2 === 0 ? `${i + 1}. the LANTERN by the door is lit` : `${i + 1}. a lantern hangs in the hall`,
).join('\n');

describe('the Grep page', () => {
  let key: string;
  let lanterns: string;
  beforeAll(async () => {
    key = await harness.server.newKey('console-grep');
    lanterns = await capture(key, { text: LANTERNS, title: 'Lanterns', source_ref: 'notes/lanterns.txt' });
    await capture(key, { text: SOURDOUGH, title: 'Sourdough', source_ref: 'recipes/sourdough.txt' });
  }, 180_000);

  it('shows each matching line as file : line with the match marked, case sensitive or not, page after page', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Grep');
    await page.getByRole('heading', { name: 'Grep', level: 2 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const lines = page.getByRole('list', { name: 'Matching lines' }).getByRole('listitem');
    const more = page.getByRole('button', { name: 'More results' });

    await page.getByRole('textbox', { name: 'Pattern' }).fill('LANTERN');
    await page.getByRole('checkbox', { name: 'Case sensitive' }).check();
    await page.getByRole('button', { name: 'Grep', exact: true }).click();
    await page.getByText('35 matching lines.').waitFor();
    expect(await lines.count()).toBe(35);
    expect(await more.count()).toBe(0);
    const first = lines.first();
    const link = first.getByRole('link', { name: 'notes/lanterns.txt : 1' });
    expect(await link.getAttribute('href')).toBe(`#/documents/${lanterns}?line=1`);
    expect(await first.textContent()).toContain('1. the LANTERN by the door is lit');
    expect(await first.locator('mark.hit').allTextContents()).toEqual(['LANTERN']);
    expect(await page.locator('mark.hit').allTextContents()).not.toContain('lantern');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'grep-case-sensitive');

    // Not case sensitive: every line, 50 to a page.
    await page.getByRole('checkbox', { name: 'Case sensitive' }).uncheck();
    await page.getByText('50 matching lines, more to come.').waitFor();
    expect(await lines.count()).toBe(50);
    const second = lines.nth(1);
    expect(await second.getByRole('link').textContent()).toBe('notes/lanterns.txt : 2');
    expect(await second.locator('mark.hit').allTextContents()).toEqual(['lantern']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'grep-results');

    await more.click();
    await page.getByText('70 matching lines.').waitFor();
    expect(await lines.count()).toBe(70);
    expect(await lines.last().getByRole('link').textContent()).toBe('notes/lanterns.txt : 70');
    expect(await more.count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'grep-all-pages');

    await second.getByRole('link').click();
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/documents/${lanterns}?line=2`);
    expect(outside).toEqual([]);
  });

  it('marks a pattern full of punctuation as the literal it is', async () => {
    const marked = '[draft] ROADMAP-42 (v2.0)* costs $5 a|b {x} ^c\\d/e?';
    await capture(key, { text: `Plans\n${marked} for the spring\nnothing here`, title: 'Roadmap' });
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await page.goto(`${harness.server.url}/console#/grep?pattern=${encodeURIComponent(marked)}`);
    const lines = page.getByRole('list', { name: 'Matching lines' }).getByRole('listitem');
    await page.getByText('1 matching line.').waitFor();
    expect(await lines.first().locator('mark.hit').allTextContents()).toEqual([marked]);
    await page.goto(`${harness.server.url}/console#/grep?pattern=ROADMAP-42`);
    await page.getByText('1 matching line.').waitFor();
    expect(await lines.first().locator('mark.hit').allTextContents()).toEqual(['ROADMAP-42']);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
  });

  it('says so when no line holds the pattern, and shows an error in words', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Grep');
    await page.getByRole('textbox', { name: 'Pattern' }).fill('no such words anywhere');
    await page.getByRole('textbox', { name: 'Pattern' }).press('Enter');
    await page.getByText('No line holds it.').waitFor();
    // A pattern over the contract's 512 characters, typed into the address: the API's 422, in words.
    await page.goto(`${harness.server.url}/console#/grep?pattern=${'x'.repeat(513)}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/422/);
    expect(await alert.textContent()).toMatch(/pattern/);
    expect(await alert.textContent()).toMatch(/Request id: \S+/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'grep-error');
  });
});

describe('Search and Grep on a phone', () => {
  it('fit the screen, results and all', async () => {
    const key = await harness.server.newKey('console-phone');
    await capture(key, { text: LANTERNS, title: 'Lanterns', source_ref: 'notes/lanterns.txt' });
    const { page } = await harness.newPage({ phone: true });
    await signIn(page, harness.server, key);
    await page.goto(`${harness.server.url}/console#/search?q=lantern+in+the+hall`);
    await page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first().waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'search-phone');
    await page.goto(`${harness.server.url}/console#/grep?pattern=lantern`);
    await page.getByText('50 matching lines, more to come.').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'grep-phone');
  });
});
