import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../lambdas/core/ports.js';
import { makeDocx, makePdf } from '../extraction/fixtures.js';
import {
  type ConsoleHarness,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/** A word that keeps a file processing: its passages are embedded only once `release()` is called. */
const HELD_WORD = 'zeppelin';

/** The hashing embedder, except that passages holding HELD_WORD wait until released. */
class HoldingEmbedder implements Embedder {
  private readonly inner = new HashingEmbedder();
  readonly name = this.inner.name;
  readonly dimensions = this.inner.dimensions;
  private release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  async embed(texts: readonly string[], purpose: 'query' | 'passage') {
    if (purpose === 'passage' && texts.some((text) => text.toLowerCase().includes(HELD_WORD))) await this.released;
    return this.inner.embed(texts);
  }

  releaseAll(): void {
    this.release();
  }
}

/**
 * The Upload page in a real browser against the local server: files chosen
 * with "Upload files", dropped, or a whole folder, sent through the batch
 * endpoint; each file's receipt, then its document's status until ready or
 * failed, with the reason for a refusal or a failure.
 */
describe('the Upload page', () => {
  let harness: ConsoleHarness;
  let key: string;
  let folder: string;
  const embedder = new HoldingEmbedder();
  beforeAll(async () => {
    harness = await startConsoleHarness({ embedder });
    key = await harness.server.newKey('console-upload');
    folder = mkdtempSync(join(tmpdir(), 'console-upload-'));
  }, 60_000);
  afterAll(async () => {
    embedder.releaseAll();
    await harness?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The uploads table's row for a file (by its path), and its text once `test` holds for it. */
  const row = (page: Page, path: string) =>
    page.getByRole('table', { name: 'Uploads' }).getByRole('row').filter({ hasText: path });
  async function waitRow(page: Page, path: string, text: RegExp): Promise<string> {
    await expect
      .poll(async () => (await row(page, path).count()) === 1 && (await row(page, path).textContent()), {
        timeout: 45_000,
        interval: 250,
      })
      .toMatch(text);
    return (await row(page, path).textContent()) ?? '';
  }
  const documents = async (query = '') =>
    (await harness.server.api(`/v1/documents?limit=100${query}`, { key })).body.documents as Array<{
      id: string;
      title: string;
      source_ref: string | null;
      status: string;
      failure_reason: string | null;
      size_bytes: number;
    }>;

  it('sends files of three types chosen with "Upload files", each to ready; refuses an empty file and shows a corrupt PDF failed, each with its reason', async () => {
    const { page, outside } = await harness.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, harness.server, key);
    await openPage(page, 'Upload');
    await page.getByRole('heading', { name: 'Upload', level: 2 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'upload-empty');

    const text = Buffer.from('Harbour notes\nThe ferry leaves at nine.\nBring the blue umbrella.\n');
    const html = Buffer.from(
      '<html><body><h1>Lighthouse</h1><p>The lamp turns every twelve seconds.</p></body></html>',
    );
    const docx = await makeDocx();
    const broken = (await makePdf([{ text: 'Half a document' }])).subarray(0, 200);
    await page.getByLabel('Upload files').setInputFiles([
      { name: 'harbour.txt', mimeType: 'text/plain', buffer: text },
      { name: 'lighthouse.html', mimeType: 'text/html', buffer: html },
      {
        name: 'report.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: docx,
      },
      { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
      { name: 'broken.pdf', mimeType: 'application/pdf', buffer: broken },
    ]);

    // Each file's receipt, then its document's status as it moves.
    for (const name of ['harbour.txt', 'lighthouse.html', 'report.docx']) {
      const done = await waitRow(page, name, /ready/);
      expect(done).toMatch(/created/);
    }
    expect(await waitRow(page, 'empty.txt', /rejected/)).toMatch(/empty_content: /);
    const failed = await waitRow(page, 'broken.pdf', /failed/);
    expect(failed).toMatch(/created/);
    expect(failed).toMatch(/extraction_failed: /);
    await page.getByRole('status').filter({ hasText: '5 of 5 sent' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'sent' }).textContent()).toMatch(
      /3 ready, 0 processing, 1 failed, 1 rejected/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'upload-done');

    // What the page showed is what the API holds: the files by name as their source_ref, the empty one nowhere.
    const stored = await documents();
    const byRef = new Map(stored.map((doc) => [doc.source_ref, doc]));
    expect(byRef.get('harbour.txt')).toMatchObject({ status: 'ready', size_bytes: text.length });
    expect(byRef.get('lighthouse.html')).toMatchObject({ status: 'ready' });
    expect(byRef.get('report.docx')).toMatchObject({ status: 'ready', size_bytes: docx.length });
    expect(byRef.get('broken.pdf')).toMatchObject({ status: 'failed' });
    expect(failed).toContain(byRef.get('broken.pdf')!.failure_reason);
    expect(byRef.has('empty.txt')).toBe(false);

    // The Documents page lists them; back on Upload, the uploads are still there (they live beside the client, not the page).
    await openPage(page, 'Documents');
    const listed = page.getByRole('table', { name: 'Documents' });
    await listed.getByRole('link', { name: 'report.docx' }).waitFor();
    expect(await listed.getByRole('row').filter({ hasText: 'broken.pdf' }).textContent()).toMatch(/failed/);
    await openPage(page, 'Upload');
    expect(await waitRow(page, 'report.docx', /ready/)).toMatch(/created/);

    // Sent again: the same bytes are deduped, and the row links to the document's page.
    await page.getByRole('button', { name: 'Clear the list' }).click();
    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'harbour.txt', mimeType: 'text/plain', buffer: text }]);
    expect(await waitRow(page, 'harbour.txt', /deduped.*ready/)).toBeTruthy();
    await row(page, 'harbour.txt').getByRole('link', { name: 'harbour.txt' }).click();
    await page.getByRole('heading', { name: 'harbour.txt', level: 2 }).waitFor();
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  }, 120_000);

  it('takes files dropped on the zone, and a folder with its paths as source_refs, into the chosen end user library', async () => {
    const { page, outside } = await harness.newPage();
    await signIn(page, harness.server, key);
    const endUser = page.getByRole('combobox', { name: 'End user' });
    await endUser.fill('uploader');
    await endUser.press('Enter');
    await openPage(page, 'Upload');
    await page.getByText('Into the library of end user uploader').waitFor();

    // A drop as the browser delivers it: a DataTransfer holding the files.
    const dataTransfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Dropped one: quiet meadow'], 'dropped-one.txt', { type: 'text/plain' }));
      transfer.items.add(new File(['# Dropped two\\n\\nA windy ridge'], 'dropped-two.md', { type: 'text/markdown' }));
      return transfer;
    })()`);
    const zone = page.getByText('Drop files or folders here');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
    await waitRow(page, 'dropped-one.txt', /ready/);
    await waitRow(page, 'dropped-two.md', /ready/);

    // A folder: every file in it, however deep, keeps its path inside the folder.
    const root = join(folder, 'trip');
    mkdirSync(join(root, 'days'), { recursive: true });
    writeFileSync(join(root, 'plan.txt'), 'Trip plan: the coast road north\n');
    writeFileSync(join(root, 'days', 'monday.md'), '# Monday\n\nTide pools at dawn.\n');
    await page.getByLabel('Folder to upload').setInputFiles(root);
    await waitRow(page, 'trip/plan.txt', /ready/);
    await waitRow(page, 'trip/days/monday.md', /ready/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'upload-folder');

    const mine = await documents('&end_user_id=uploader');
    expect(mine.map((doc) => doc.source_ref).sort()).toEqual([
      'dropped-one.txt',
      'dropped-two.md',
      'trip/days/monday.md',
      'trip/plan.txt',
    ]);
    expect(mine.find((doc) => doc.source_ref === 'trip/days/monday.md')?.title).toBe('monday.md');
    // Nothing went to the shared library.
    expect((await documents()).some((doc) => doc.source_ref?.startsWith('dropped'))).toBe(false);

    // The list is the library shown: the shared one has none of these files (its links would open under its scope)...
    const uploads = page.getByRole('table', { name: 'Uploads' });
    await endUser.fill('');
    await endUser.press('Enter');
    await page.getByText('Into the shared library').waitFor();
    expect(await uploads.count()).toBe(0);
    await page.getByText('4 files sent to another library').waitFor();
    await page
      .getByLabel('Upload files')
      .setInputFiles([
        { name: 'shared-one.txt', mimeType: 'text/plain', buffer: Buffer.from('Shared one: a calm bay') },
      ]);
    await waitRow(page, 'shared-one.txt', /ready/);
    expect(await uploads.locator('tbody tr').count()).toBe(1);
    await page.getByRole('status').filter({ hasText: '1 of 1 sent; 1 ready' }).waitFor();
    // ...and uploader's are there again when it is shown again, the shared one not; its clearing clears its own only.
    await endUser.fill('uploader');
    await endUser.press('Enter');
    await page.getByText('Into the library of end user uploader').waitFor();
    await page.getByRole('status').filter({ hasText: '4 of 4 sent; 4 ready' }).waitFor();
    expect((await uploads.locator('tbody tr').allTextContents()).some((text) => text.includes('shared-one'))).toBe(
      false,
    );
    await row(page, 'trip/plan.txt').getByRole('link', { name: 'trip/plan.txt' }).click();
    await page.getByRole('heading', { name: 'plan.txt', level: 2 }).waitFor();
    await openPage(page, 'Upload');
    await page.getByRole('button', { name: 'Clear the list' }).click();
    expect(await uploads.count()).toBe(0);
    await page.getByText('1 file sent to another library').waitFor();
    await endUser.fill('');
    await endUser.press('Enter');
    await waitRow(page, 'shared-one.txt', /ready/);
    expect(outside).toEqual([]);
  }, 120_000);

  it('sends more than a batch holds in several batches, every file with its receipt', async () => {
    const { page } = await harness.newPage({ phone: true });
    await signIn(page, harness.server, key);
    await page.getByRole('button', { name: 'Navigation' }).click();
    await openPage(page, 'Upload');
    const files = Array.from({ length: 23 }, (_, i) => ({
      name: `many-${String(i).padStart(2, '0')}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`Item number ${i} of the many`),
    }));
    await page.getByLabel('Upload files').setInputFiles(files);
    await page.getByRole('status').filter({ hasText: '23 of 23 sent; 23 ready' }).waitFor({ timeout: 45_000 });
    const stored = await documents(
      `&filter=${encodeURIComponent(JSON.stringify({ source_ref: { prefix: 'many-' } }))}`,
    );
    expect(stored).toHaveLength(23);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'upload-phone');
  }, 120_000);

  it('gives up reading a status the service refuses, and says so: status unknown (why)', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Upload');
    // Its status reads go with a key the service does not know (as after the key was revoked): 401.
    const refused: string[] = [];
    await page.route(
      (url) => url.pathname.startsWith('/v1/documents/'),
      async (route) => {
        refused.push(route.request().url());
        await route.continue({ headers: { ...route.request().headers(), authorization: 'Bearer not-a-key' } });
      },
    );
    await page
      .getByLabel('Upload files')
      .setInputFiles([
        { name: 'balloon.txt', mimeType: 'text/plain', buffer: Buffer.from(`A ${HELD_WORD} tethered in the field`) },
      ]);
    const shown = await waitRow(page, 'balloon.txt', /unknown/);
    expect(shown).toMatch(/created/);
    expect(shown).toMatch(/status unknown \(The service answered 401 \(unauthorized\): /);
    await page.getByRole('status').filter({ hasText: '1 of 1 sent; 0 ready, 0 processing' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'sent' }).textContent()).toMatch(/1 status unknown/);
    // Given up: not read again.
    const reads = refused.length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(refused.length).toBe(reads);
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('keeps a saved edit on the page of a document still processing: a read that started before the save does not undo it', async () => {
    const captured = await harness.server.api('/v1/capture/batch', {
      key,
      body: { items: [{ title: 'Kite notes', text: `The ${HELD_WORD} and the kite` }] },
    });
    const id = captured.body.results[0].id as string;
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await page.goto(`${harness.server.url}/console#/documents/${id}`);
    await page.getByRole('heading', { name: 'Kite notes', level: 2 }).waitFor();
    expect(await page.getByLabel('Record').textContent()).toContain('processing');
    // Its reads answer slowly: one is read before the edit is saved, and its answer comes after.
    let readStarted: () => void = () => {};
    await page.route(
      (url) => url.pathname === `/v1/documents/${id}`,
      async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        readStarted();
        const response = await route.fetch().catch(() => null);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        if (response) await route.fulfill({ response }).catch(() => {});
      },
    );
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit document' });
    await form.getByLabel('Title').fill('Kite notes, edited');
    await new Promise<void>((resolve) => (readStarted = resolve));
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    await page.getByRole('heading', { name: 'Kite notes, edited', level: 2 }).waitFor();
    // The read from before the save has answered (the old title) and the next ones too: the saved title stays.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('Kite notes, edited');
  }, 60_000);

  it('reads a Documents page with a document still processing again only once the last read has answered', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    // A slow service: each list read answers after 4 s, longer than the 3 s between reads.
    const reads: { started: number; answered: number | null }[] = [];
    const failed: string[] = [];
    await page.route(
      (url) => url.pathname === '/v1/documents',
      async (route) => {
        const read = { started: Date.now(), answered: null as number | null };
        reads.push(read);
        const response = await route.fetch().catch(() => null);
        await new Promise((resolve) => setTimeout(resolve, 4000));
        read.answered = Date.now();
        if (response) await route.fulfill({ response }).catch(() => {});
      },
    );
    page.on('requestfailed', (request) => {
      if (new URL(request.url()).pathname === '/v1/documents') failed.push(request.url());
    });
    await openPage(page, 'Documents');
    // "Kite notes" (held processing by the embedder) is on the first page.
    await page.getByRole('table', { name: 'Documents' }).getByRole('link', { name: 'Kite notes' }).waitFor();
    // Read again (not once only), each read after the last answered, none given up half way.
    await expect.poll(() => reads.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => reads[1]!.answered, { timeout: 10_000 }).not.toBeNull();
    for (const [i, read] of reads.entries()) {
      if (i === 0) continue;
      const before = reads[i - 1]!;
      expect(before.answered).not.toBeNull();
      expect(read.started - before.answered!).toBeGreaterThanOrEqual(2900);
    }
    expect(failed).toEqual([]);
  }, 60_000);

  it('stops reading the status of files still processing once the person signs out: nothing more is sent with the key', async () => {
    const { page } = await harness.newPage();
    await signIn(page, harness.server, key);
    await openPage(page, 'Upload');
    const statusReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/documents/')) statusReads.push(request.url());
    });
    // Kept processing (its embedding waits): the page reads its status round after round.
    await page
      .getByLabel('Upload files')
      .setInputFiles([
        { name: 'airship.txt', mimeType: 'text/plain', buffer: Buffer.from(`The ${HELD_WORD} drifts over the bay`) },
      ]);
    await waitRow(page, 'airship.txt', /created.*processing/);
    await expect.poll(() => statusReads.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await row(page, 'airship.txt').textContent()).toMatch(/processing/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    const atSignOut = statusReads.length;
    // Two rounds and more: not one read.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(statusReads.slice(atSignOut)).toEqual([]);
    embedder.releaseAll();
  }, 60_000);
});
