import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../extraction/fixtures.js';
import {
  type ConsoleHarness,
  openPage,
  SCREENSHOTS,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/**
 * The Documents page and a document's page in a real browser against the
 * local server: the list with its fields, filters and paging; a document's
 * record, numbered text (at a line from `?line=`), download, edit (PATCH)
 * and delete; a failed document with its reason.
 */
describe('the Documents page and a document page', () => {
  let harness: ConsoleHarness;
  let key: string;
  const ids = new Map<string, string>();
  let docx: Buffer;
  const LEDGER_LINES = 1200;

  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    harness.server.api(path, { key, ...init });

  const waitSettled = (id: string, endUser = ''): Promise<{ status: string; failure_reason: string | null }> =>
    harness.server.settled(key, id, { endUserId: endUser || undefined });

  beforeAll(async () => {
    harness = await startConsoleHarness({ embedder: new HashingEmbedder() });
    key = await harness.server.newKey('console-documents');
    docx = await makeDocx();
    const broken = (await makePdf([{ text: 'Half a document' }])).subarray(0, 200);
    const ledger = Array.from({ length: LEDGER_LINES }, (_, i) => `Ledger entry ${i + 1}: paid the ferryman`).join(
      '\n',
    );
    const items = [
      {
        title: 'Alpha notes',
        text: 'Alpha notes\nThe apollo kickoff\nWe met at noon.',
        source_ref: 'notes/alpha.md',
        metadata: { project: 'apollo', year: 2024 },
      },
      {
        title: 'Beta notes',
        text: 'Beta notes\nThe gemini review',
        source_ref: 'notes/beta.md',
        metadata: { project: 'gemini', year: 2025 },
      },
      {
        title: 'Mail one',
        text: 'Mail one\nTickets booked',
        source_ref: 'mail/one.txt',
        metadata: { project: 'apollo', tags: ['travel', '2026'] },
      },
      { title: 'Long ledger', text: ledger, source_ref: 'ledger/long.txt', metadata: {} },
      {
        title: 'Quarterly report',
        content_base64: b64(docx),
        filename: 'report.docx',
        content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        source_ref: 'files/report.docx',
        metadata: { project: 'apollo' },
      },
      // Accepted at once (a batch item is queued), then its extraction fails: the document ends `failed` with the reason.
      {
        title: 'Broken scan',
        content_base64: b64(broken),
        filename: 'broken.pdf',
        content_type: 'application/pdf',
        source_ref: 'files/broken.pdf',
      },
      ...Array.from({ length: 6 }, (_, i) => ({
        title: `Tiny ${i}`,
        text: `Tiny note number ${i}`,
        source_ref: `tiny/${i}.txt`,
      })),
    ];
    const batch = await api('/v1/capture/batch', { body: { items } });
    expect(batch.status).toBe(200);
    for (const [i, receipt] of (batch.body.results as Array<{ status: string; id: string }>).entries()) {
      expect(receipt.status, items[i]!.title).toBe('created');
      ids.set(items[i]!.title, receipt.id);
    }
    const alice = await api('/v1/capture', {
      body: { text: "Alice's diary: the garden", title: "Alice's diary", end_user_id: 'alice' },
    });
    ids.set("Alice's diary", alice.body.id);
    for (const [title, id] of ids) await waitSettled(id, title === "Alice's diary" ? 'alice' : '');
    expect((await waitSettled(ids.get('Broken scan')!)).status).toBe('failed');
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  const table = (page: Page) => page.getByRole('table', { name: 'Documents' });
  const row = (page: Page, title: string) =>
    table(page)
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: title, exact: true }) });
  /** The titles the list shows now. */
  const titles = async (page: Page) => {
    if (!(await table(page).count())) return [];
    return table(page).locator('tbody tr').getByRole('link').allTextContents();
  };
  /** Waits until the list shows exactly `expected` (in any order). */
  const expectTitles = (page: Page, expected: string[]) =>
    expect.poll(async () => (await titles(page)).sort(), { timeout: 15_000 }).toEqual([...expected].sort());
  const ALL = [
    'Alpha notes',
    'Beta notes',
    'Mail one',
    'Long ledger',
    'Quarterly report',
    'Broken scan',
    ...Array.from({ length: 6 }, (_, i) => `Tiny ${i}`),
  ];

  async function openList(options: { phone?: boolean } = {}) {
    const { page, outside } = await harness.newPage(options);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, harness.server, key);
    if (options.phone) await page.getByRole('button', { name: 'Navigation' }).click();
    await openPage(page, 'Documents');
    await page.getByRole('heading', { name: 'Documents', level: 2 }).waitFor();
    return { page, outside, errors };
  }

  it('lists every document with its source_ref, kind, status (a failed one with its reason), size, date and metadata', async () => {
    const { page, outside, errors } = await openList();
    await page.getByLabel('Per page').selectOption('50');
    await expectTitles(page, ALL);
    const report = await row(page, 'Quarterly report').textContent();
    expect(report).toContain('files/report.docx');
    expect(report).toMatch(/file/);
    expect(report).toMatch(/ready/);
    expect(report).toContain(`${(docx.length / 1024).toFixed(1)} KB`);
    expect(report).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(report).toContain('project: apollo');
    const mail = await row(page, 'Mail one').textContent();
    expect(mail).toMatch(/text/);
    expect(mail).toContain('tags: travel, 2026');
    const failure = (await api(`/v1/documents/${ids.get('Broken scan')}`)).body.failure_reason as string;
    expect(failure).toMatch(/^extraction_failed: /);
    const broken = row(page, 'Broken scan');
    expect(await broken.textContent()).toMatch(/failed/);
    expect(await broken.getByTestId('failure-reason').textContent()).toBe(failure);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'documents-list');

    // Another end user's library is apart: alice sees her diary only, and back.
    const endUser = page.getByRole('combobox', { name: 'End user' });
    await endUser.fill('alice');
    await endUser.press('Enter');
    await expectTitles(page, ["Alice's diary"]);
    await endUser.fill('');
    await endUser.press('Enter');
    await expectTitles(page, ALL);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);

  it("never shows the last library's rows under another library's caption while its list loads", async () => {
    const { page, errors } = await openList();
    await page.getByLabel('Per page').selectOption('50');
    await expectTitles(page, ALL);
    // Alice's list answers slowly, so there is a while when it is loading.
    await page.route(
      (url) => url.pathname === '/v1/documents' && url.searchParams.get('end_user_id') === 'alice',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => {});
      },
    );
    // Every state the list is in, with the caption it is under.
    await page.evaluate(`(() => {
      const states = [];
      window.__listStates = states;
      const record = () => {
        const caption = [...document.querySelectorAll('main p')].map((p) => p.textContent).find((t) => t.startsWith('The '));
        const titles = [...document.querySelectorAll('table[aria-label="Documents"] tbody a')].map((a) => a.textContent);
        states.push({ caption, titles });
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    const endUser = page.getByRole('combobox', { name: 'End user' });
    await endUser.fill('alice');
    await endUser.press('Enter');
    await page.getByText('The library of end user alice.').waitFor();
    // Loading: no rows at all (the shared library's would open as 404s under alice's scope).
    expect(await page.getByLabel('Loading documents').count()).toBe(1);
    expect(await titles(page)).toEqual([]);
    await expectTitles(page, ["Alice's diary"]);
    const states = (await page.evaluate('window.__listStates')) as Array<{ caption?: string; titles: string[] }>;
    const underAlice = states.filter((state) => state.caption?.includes('alice'));
    expect(underAlice.length).toBeGreaterThan(0);
    for (const state of underAlice) expect(state.titles.filter((title) => title !== "Alice's diary")).toEqual([]);
    await page.unrouteAll();
    await endUser.fill('');
    await endUser.press('Enter');
    await expectTitles(page, ALL);
    expect(errors).toEqual([]);
  }, 60_000);

  it('narrows the list by status, kind, source_ref prefix and metadata, and clears back', async () => {
    const { page } = await openList();
    await page.getByLabel('Per page').selectOption('50');
    await expectTitles(page, ALL);

    await page.getByLabel('Status').selectOption('failed');
    await expectTitles(page, ['Broken scan']);
    expect(page.url()).toContain('status=failed');
    await page.getByLabel('Status').selectOption('ready');
    await expectTitles(
      page,
      ALL.filter((title) => title !== 'Broken scan'),
    );
    await page.getByLabel('Status').selectOption('');

    await page.getByLabel('Kind').selectOption('file');
    await expectTitles(page, ['Quarterly report', 'Broken scan']);
    await page.getByLabel('Kind').selectOption('');

    await page.getByLabel('Source ref prefix').fill('notes/');
    await page.getByLabel('Source ref prefix').press('Enter');
    await expectTitles(page, ['Alpha notes', 'Beta notes']);
    await page.getByLabel('Source ref prefix').fill('');

    // A metadata value typed as text matches the number stored (year 2024) and the string (project apollo).
    await page.getByLabel('Metadata key').fill('project');
    await page.getByLabel('Metadata value').fill('apollo');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expectTitles(page, ['Alpha notes', 'Mail one', 'Quarterly report']);
    await page.getByLabel('Metadata key').fill('year');
    await page.getByLabel('Metadata value').fill('2024');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expectTitles(page, ['Alpha notes']);
    // A key alone: every document that has it; an array value matches any of its items.
    await page.getByLabel('Metadata value').fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expectTitles(page, ['Alpha notes', 'Beta notes']);
    await page.getByLabel('Metadata key').fill('tags');
    await page.getByLabel('Metadata value').fill('travel');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expectTitles(page, ['Mail one']);

    // Several at once: all must hold.
    await page.getByLabel('Metadata key').fill('project');
    await page.getByLabel('Metadata value').fill('apollo');
    await page.getByLabel('Kind').selectOption('text');
    await expectTitles(page, ['Alpha notes', 'Mail one']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'documents-filtered');

    // A key the contract refuses is named before anything is sent.
    await page.getByLabel('Metadata key').fill('9 bad');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('A key starts with a letter').waitFor();
    await expectTitles(page, ['Alpha notes', 'Mail one']);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectTitles(page, ALL);
    expect(new URL(page.url()).hash).toBe('#/documents?limit=50');
  }, 60_000);

  it('pages through the list with next and previous, each document once, also filtered by status', async () => {
    const { page } = await openList({ phone: true });
    await page.getByLabel('Per page').selectOption('5');
    // The page size applies through the address: until it has, the first page of 12 is still shown as "Page 1".
    await page.getByText(/^Page 1: 5 documents$/).waitFor();
    const seen: string[] = [];
    const sizes: number[] = [];
    const previousPage = page.getByRole('button', { name: 'Previous page' });
    const nextPage = page.getByRole('button', { name: 'Next page' });
    expect(await previousPage.isDisabled()).toBe(true);
    for (let n = 1; n <= 3; n++) {
      await page.getByText(new RegExp(`^Page ${n}: \\d+ documents?$`)).waitFor();
      const shown = await titles(page);
      seen.push(...shown);
      sizes.push(shown.length);
      if (n < 3) await nextPage.click();
    }
    expect(sizes).toEqual([5, 5, 2]);
    expect(seen.sort()).toEqual([...ALL].sort());
    expect(await nextPage.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'documents-phone-last-page');
    await previousPage.click();
    await page.getByText(/^Page 2: 5 documents$/).waitFor();
    await previousPage.click();
    await page.getByText(/^Page 1: 5 documents$/).waitFor();
    expect(await previousPage.isDisabled()).toBe(true);

    // Status is kept by the list itself: pages of 5 ready documents, read on until each is full.
    // (From page 2, so "Page 1" with its count says the filtered page has been read.)
    await nextPage.click();
    await page.getByText(/^Page 2: 5 documents$/).waitFor();
    await page.getByLabel('Status').selectOption('ready');
    const ready: string[] = [];
    await page.getByText(/^Page 1: \d+ documents?$/).waitFor();
    const readySizes: number[] = [];
    const shownReady = async () => {
      const shown = await titles(page);
      ready.push(...shown);
      readySizes.push(shown.length);
    };
    await shownReady();
    while (await nextPage.isEnabled()) {
      const before = (await titles(page)).join('|');
      await nextPage.click();
      await expect.poll(async () => (await titles(page)).join('|')).not.toBe(before);
      await page.getByText(/^Page \d+: \d+ documents?$/).waitFor();
      await shownReady();
    }
    expect(ready.sort()).toEqual(ALL.filter((title) => title !== 'Broken scan').sort());
    // Never more than a page's worth: the page that found more stopped there, and the next went on from it.
    expect(readySizes).toEqual([5, 5, 1]);
  }, 60_000);

  it('opens a document from its row: the record and its numbered text; ?line= highlights that line in view; a long text pages', async () => {
    const { page, errors } = await openList();
    await page.getByLabel('Per page').selectOption('50');
    await row(page, 'Alpha notes').getByRole('link').click();
    await page.getByRole('heading', { name: 'Alpha notes', level: 2 }).waitFor();
    const id = ids.get('Alpha notes')!;
    expect(new URL(page.url()).hash).toBe(`#/documents/${id}`);
    const record = page.getByLabel('Record');
    for (const shown of [id, 'notes/alpha.md', 'text', 'ready', 'project: apollo', 'year: 2024', 'Lines3'])
      expect(await record.textContent()).toContain(shown);
    const text = page.getByRole('region', { name: 'Text' });
    await text.waitFor();
    expect(await text.locator('[data-line]').allTextContents()).toEqual([
      '1Alpha notes',
      '2The apollo kickoff',
      '3We met at noon.',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'document-page');

    // The link search, grep and chat citations use: the line marked and scrolled into view.
    const ledger = ids.get('Long ledger')!;
    await page.goto(`${harness.server.url}/console#/documents/${ledger}?line=900`);
    await page.getByRole('heading', { name: 'Long ledger', level: 2 }).waitFor();
    const marked = page.locator('[aria-current="true"]');
    await marked.waitFor();
    expect(await marked.getAttribute('data-line')).toBe('900');
    expect(await marked.textContent()).toBe('900Ledger entry 900: paid the ferryman');
    // In view: inside the 800 px the window shows.
    await expect
      .poll(async () => {
        const box = await marked.boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= 800;
      })
      .toBe(true);
    await page.getByText(`Lines 501 to 1000 of ${LEDGER_LINES}`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // A range (a search result's passage): every line of it marked, the ones around it not.
    await page.goto(`${harness.server.url}/console#/documents/${ledger}?line=610&to=613`);
    await expect
      .poll(async () => (await marked.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-line')))).join(','))
      .toBe('610,611,612,613');
    // The window as the person sees it (the whole page is 500 lines long).
    await page.screenshot({ path: join(SCREENSHOTS, 'document-at-line.png') });
    // Paging through the text, and going to another line.
    await page.getByRole('button', { name: 'Later lines' }).click();
    await page.getByText(`Lines 1001 to ${LEDGER_LINES} of ${LEDGER_LINES}`).waitFor();
    expect(await page.getByRole('button', { name: 'Later lines' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Earlier lines' }).click();
    await page.getByText(`Lines 501 to 1000 of ${LEDGER_LINES}`).waitFor();
    await page.getByLabel('Go to line').fill('12');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText(`Lines 1 to 500 of ${LEDGER_LINES}`).waitFor();
    await expect.poll(() => marked.getAttribute('data-line')).toBe('12');
    expect(new URL(page.url()).hash).toBe(`#/documents/${ledger}?line=12`);
    expect(errors).toEqual([]);
  }, 60_000);

  it('downloads the original file, byte for byte', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await page.goto(`${harness.server.url}/console#/documents/${ids.get('Quarterly report')}`);
    await page.getByRole('heading', { name: 'Quarterly report', level: 2 }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.docx');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(docx)).toBe(true);
  }, 60_000);

  it("opens a link answer (AWS's presigned URL) in a new tab, so the console's tab stays whatever the storage answers", async () => {
    const { page, context } = await harness.newPage();
    await signIn(page, harness.server, key);
    const id = ids.get('Quarterly report')!;
    await page.goto(`${harness.server.url}/console#/documents/${id}`);
    await page.getByRole('heading', { name: 'Quarterly report', level: 2 }).waitFor();
    const consoleUrl = page.url();
    // The file route answers as on AWS: its link, here one that answers an error (no key), as a storage might.
    const link = `${harness.server.url}/v1/documents/${id}/file?X-Amz-Signature=expired`;
    await page.route(
      (url) => url.pathname === `/v1/documents/${id}/file` && !url.searchParams.has('X-Amz-Signature'),
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/vnd.library.file-link+json',
          body: JSON.stringify({
            url: link,
            expires_in_seconds: 300,
            filename: 'report.docx',
            content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          }),
        }),
    );
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(link);
    // Opened apart: no way back to the console's window, and no referrer sent to the storage.
    expect(await tab.evaluate('window.opener')).toBeNull();
    expect(await tab.evaluate('document.referrer')).toBe('');
    await tab.close();
    expect(page.url()).toBe(consoleUrl);
    await page.getByRole('heading', { name: 'Quarterly report', level: 2 }).waitFor();
  }, 60_000);

  it('edits the title, source_ref and metadata (PATCH), refusing metadata the contract does not allow', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    const id = ids.get('Beta notes')!;
    await page.goto(`${harness.server.url}/console#/documents/${id}`);
    await page.getByRole('heading', { name: 'Beta notes', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit document' });
    expect(JSON.parse(await form.getByLabel('Metadata').inputValue())).toEqual({ project: 'gemini', year: 2025 });

    // Named before sending: not JSON, then a value of the wrong shape.
    await form.getByLabel('Metadata').fill('{"project": ');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText(/^Not valid JSON/).waitFor();
    await form.getByLabel('Metadata').fill('{"project": {"nested": true}}');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('project: a string, a number, a boolean or an array of strings').waitFor();
    expect((await api(`/v1/documents/${id}`)).body.metadata).toEqual({ project: 'gemini', year: 2025 });

    await form.getByLabel('Title').fill('Beta notes, reviewed');
    await form.getByLabel('Source ref').fill('notes/beta-reviewed.md');
    await form.getByLabel('Metadata').fill('{"project": "gemini", "reviewed": true, "tags": ["q3", "done"]}');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'document-edit');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Beta notes, reviewed', level: 2 }).waitFor();
    await page.getByText('Changes saved.').waitFor();

    // The PATCH took: year removed (sent as null), the others set.
    const stored = (await api(`/v1/documents/${id}`)).body;
    expect(stored).toMatchObject({
      title: 'Beta notes, reviewed',
      source_ref: 'notes/beta-reviewed.md',
      metadata: { project: 'gemini', reviewed: true, tags: ['q3', 'done'] },
    });
    expect(stored.metadata).not.toHaveProperty('year');
    expect(await page.getByLabel('Record').textContent()).toContain('reviewed: true');
  }, 60_000);

  it('deletes a document after a confirmation that names it, then shows the list', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    const id = ids.get('Tiny 5')!;
    await page.goto(`${harness.server.url}/console#/documents/${id}`);
    await page.getByRole('heading', { name: 'Tiny 5', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this document?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Tiny 5');
    expect(await dialog.textContent()).toContain(id);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'document-delete-confirm');
    // Cancel keeps it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await api(`/v1/documents/${id}`)).status).toBe(200);

    // While the delete is on its way the dialog cannot be closed: no close button, and Escape does nothing.
    await page.route(
      (url) => url.pathname === `/v1/documents/${id}`,
      async (route) => {
        if (route.request().method() === 'DELETE') await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => {});
      },
    );
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    await dialog.getByRole('button', { name: 'Delete document' }).click();
    await expect.poll(() => dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await page.getByRole('heading', { name: 'Documents', level: 2 }).waitFor();
    expect((await api(`/v1/documents/${id}`)).status).toBe(404);
    await table(page).waitFor();
    expect(await titles(page)).not.toContain('Tiny 5');
  }, 60_000);

  it("shows a failed document's reason on its page, in place of its text; an unknown id is an error with its request id", async () => {
    // On a phone: the page is usable at 390 px too.
    const { page } = await harness.newPage({ phone: true });
    await signIn(page, harness.server, key);
    await page.goto(`${harness.server.url}/console#/documents/${ids.get('Broken scan')}`);
    await page.getByRole('heading', { name: 'Broken scan', level: 2 }).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: 'This document has no text' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/extraction_failed: /);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'document-failed-phone');

    await page.goto(`${harness.server.url}/console#/documents/file_01JD7ZQ8W3M4X9N2B5C6V7K8P1`);
    const notFound = page.getByRole('alert');
    await notFound.waitFor();
    expect(await notFound.textContent()).toMatch(/404/);
    expect(await notFound.textContent()).toMatch(/Request id: \S+/);
  }, 60_000);
});
