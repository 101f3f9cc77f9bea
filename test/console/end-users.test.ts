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

/**
 * The End users page and the header's "End user" field: end users listed with
 * their document counts and paged, each library opened apart from the others
 * and from the shared one, and an erasure confirmed by typing the id.
 */
describe('end users in the web console', () => {
  let harness: ConsoleHarness;
  let key: string;
  // Each library's documents, by title: every title is in exactly one library.
  const TITLES = {
    shared: ['Shared handbook of the team'],
    alice: ['Alpine travel notes of Alice', 'Garden plan of Alice'],
    bob: ['Sourdough recipes of Bob'],
  } as const;
  // Enough end users after alice and bob (ids sort after theirs) to fill a second page of 20.
  const FILLERS = Array.from({ length: 19 }, (_, i) => `zz-filler-${String(i + 1).padStart(2, '0')}`);

  const capture = async (title: string, endUser?: string) => {
    const res = await harness.server.api('/v1/capture', {
      key,
      body: {
        text: `${title}\nA note kept for the console test.`,
        title,
        ...(endUser ? { end_user_id: endUser } : {}),
      },
    });
    expect(res.status, title).toBe(201);
  };

  beforeAll(async () => {
    harness = await startConsoleHarness({ embedder: new HashingEmbedder() });
    key = await harness.server.newKey('console-end-users');
    for (const title of TITLES.shared) await capture(title);
    for (const title of TITLES.alice) await capture(title, 'alice');
    for (const title of TITLES.bob) await capture(title, 'bob');
    const batch = await harness.server.api('/v1/capture/batch', {
      key,
      body: { items: FILLERS.map((id) => ({ text: `filler note of ${id}`, end_user_id: id })) },
    });
    expect(batch.body.succeeded).toBe(FILLERS.length);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  const endUserField = (page: Page) => page.getByRole('combobox', { name: 'End user', exact: true });
  const row = (page: Page, id: string) => page.locator(`tr[data-end-user="${id}"]`);
  const cells = async (page: Page, id: string) =>
    (await row(page, id).locator('th, td').allInnerTexts()).map((text) => text.trim());

  /** Types an id into the header's "End user" field (empty: the shared library) and commits it with Enter. */
  const chooseEndUser = async (page: Page, id: string) => {
    await endUserField(page).fill(id);
    await endUserField(page).press('Enter');
  };

  /** On the Documents page: the titles of `library` are there and no other library's. */
  const seesOnly = async (page: Page, library: keyof typeof TITLES) => {
    await page.getByRole('heading', { name: 'Documents', level: 2 }).waitFor();
    for (const title of TITLES[library]) await page.getByText(title).first().waitFor();
    for (const [other, titles] of Object.entries(TITLES)) {
      if (other === library) continue;
      for (const title of titles) expect(await page.getByText(title).count(), `${title} with ${library}`).toBe(0);
    }
  };

  it('lists the end users with their document counts and dates, a page of 20 at a time', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'End users');
    await page.getByRole('heading', { name: 'End users', level: 2 }).waitFor();
    await row(page, 'alice').waitFor();
    const alice = await cells(page, 'alice');
    expect(alice[0]).toBe('alice');
    expect(alice[1]).toBe('2');
    expect(alice[2]).toMatch(/\d{4}/);
    expect((await cells(page, 'bob'))[1]).toBe('1');
    // The shared library is not an end user.
    expect(await page.locator('tr[data-end-user]').count()).toBe(20);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'end-users');

    expect(await row(page, 'zz-filler-19').count()).toBe(0);
    await page.getByRole('button', { name: 'Next page' }).click();
    await row(page, 'zz-filler-19').waitFor();
    expect(await page.locator('tr[data-end-user]').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await row(page, 'alice').waitFor();
    expect(outside).toEqual([]);
  });

  it("opens an end user's library from its row: the header shows it and its row is marked", async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'End users');
    await page.getByRole('button', { name: 'Open library of bob' }).click();
    await page.getByRole('heading', { name: 'Documents', level: 2 }).waitFor();
    expect(await endUserField(page).inputValue()).toBe('bob');
    expect(page.url()).toMatch(/#\/documents$/);
    // The choice lasts the tab's session.
    expect(await page.evaluate('Object.values(sessionStorage)')).toContain('bob');
    await openPage(page, 'End users');
    await row(page, 'bob').getByText('shown', { exact: true }).waitFor();
    expect(await row(page, 'alice').getByText('shown', { exact: true }).count()).toBe(0);
  });

  // Reads the Documents page (another part of the console) for the titles each library holds.
  it('switches the "End user" field between libraries and shows each one\'s documents apart', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Documents');
    await seesOnly(page, 'shared');
    await chooseEndUser(page, 'alice');
    await seesOnly(page, 'alice');
    await screenshot(page, 'end-user-alice-documents');
    await chooseEndUser(page, 'bob');
    await seesOnly(page, 'bob');
    await chooseEndUser(page, '');
    await seesOnly(page, 'shared');
    expect(outside).toEqual([]);
  });

  it('shows the option highlighted with the arrow keys on Enter, never the half-typed id; the clear button goes back to the shared library', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Documents');
    await seesOnly(page, 'shared');
    const asked: string[] = [];
    page.on('request', (request) => {
      const id = new URL(request.url()).searchParams.get('end_user_id');
      if (id) asked.push(id);
    });
    await endUserField(page).click();
    await endUserField(page).pressSequentially('ali');
    await page.getByRole('option', { name: 'alice', exact: true }).waitFor();
    await endUserField(page).press('ArrowDown');
    await endUserField(page).press('Enter');
    await seesOnly(page, 'alice');
    expect(asked).toContain('alice');
    expect(asked).not.toContain('ali');
    await page.getByRole('button', { name: 'Show the shared library' }).click();
    await seesOnly(page, 'shared');
    expect(await endUserField(page).inputValue()).toBe('');
  });

  it('erases an end user after a confirmation that names it and its documents; the API finds nothing of it after', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    // Alice's library is the one shown when she is erased.
    await chooseEndUser(page, 'alice');
    await openPage(page, 'End users');
    await row(page, 'alice').getByText('shown', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Erase alice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase end user' });
    await dialog.waitFor();
    const words = await dialog.textContent();
    expect(words).toContain('alice');
    expect(words).toMatch(/every document \(2 documents\), memory and conversation of alice/);
    const confirm = dialog.getByRole('button', { name: 'Erase permanently' });
    expect(await confirm.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'end-user-erase-confirm');
    // Only the exact id confirms.
    await dialog.getByLabel('Type the end user id to confirm').fill('alic');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type the end user id to confirm').fill('alice');
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();

    const summary = page.getByRole('status').filter({ hasText: 'End user erased' });
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/alice: 2 documents, 0 files and 0 messages deleted/);
    await dialog.waitFor({ state: 'hidden' });
    await row(page, 'alice').waitFor({ state: 'detached' });
    // The console left the erased library for the shared one.
    expect(await endUserField(page).inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'end-user-erased');

    const documents = await harness.server.api('/v1/documents?end_user_id=alice', { key });
    expect(documents.body.documents).toEqual([]);
    const grep = await harness.server.api('/v1/grep?pattern=Alice&end_user_id=alice', { key });
    expect(grep.body.results).toEqual([]);
    const users = await harness.server.api('/v1/end-users?limit=100', { key });
    const ids = users.body.end_users.map((user: { id: string }) => user.id);
    expect(ids).not.toContain('alice');
    expect(ids).toContain('bob');
    const bob = await harness.server.api('/v1/documents?end_user_id=bob', { key });
    expect(bob.body.documents.map((doc: { title: string }) => doc.title)).toEqual([...TITLES.bob]);
    expect(outside).toEqual([]);
  });

  it("shows the API's refusal in the dialog, with its request id, when the end user is already gone", async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'End users');
    await page.getByRole('button', { name: 'Erase zz-filler-01' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase end user' });
    await dialog.getByLabel('Type the end user id to confirm').fill('zz-filler-01');
    // Erased elsewhere meanwhile.
    const gone = await harness.server.api('/v1/end-users/zz-filler-01', { key, method: 'DELETE' });
    expect(gone.status).toBe(200);
    await dialog.getByRole('button', { name: 'Erase permanently' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/404 \(not_found\)/);
    expect(await alert.textContent()).toMatch(/Request id: \S+/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'end-user-erase-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('works on a phone', async () => {
    const { page } = await harness.newPage({ phone: true });
    await signIn(page, harness.server, key);
    await page.getByRole('button', { name: 'Navigation' }).click();
    await openPage(page, 'End users');
    await row(page, 'bob').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'end-users-phone');
  });
});
