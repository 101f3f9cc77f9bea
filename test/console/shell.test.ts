import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleHarness,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';

/** The console's frame: its page and files, sign in and out, a wrong key, the navigation on a phone. */
describe('the web console (GET /console)', () => {
  let harness: ConsoleHarness;
  let key: string;
  beforeAll(async () => {
    harness = await startConsoleHarness();
    key = await harness.server.newKey('console-shell');
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('serves its page with a strict Content-Security-Policy and its files by hashed name, cacheable', async () => {
    const response = await fetch(`${harness.server.url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
    const html = await response.text();
    const script = /<script type="module" src="console\/(app-\w+\.js)">/.exec(html)?.[1];
    expect(script).toBeTruthy();
    // No inline script and nothing from another origin.
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]|https?:\/\//);
    const asset = await fetch(`${harness.server.url}/console/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const etag = asset.headers.get('etag')!;
    expect(
      (await fetch(`${harness.server.url}/console/${script}`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    for (const name of ['..%2Fpackage.json', 'manifest.json', 'nothing.js']) {
      const missing = await fetch(`${harness.server.url}/console/${name}`);
      expect(missing.status, name).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('refuses a wrong key in words, with the request id, and signs in with a right one', async () => {
    const { page, outside } = await harness.newPage();
    await page.goto(`${harness.server.url}/console`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('API key').fill('lib_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/401/);
    expect(await alert.textContent()).toMatch(/Request id: \S+/);
    await screenshot(page, 'sign-in-wrong-key');
    // A key no header can carry is refused before any request, in words (not "could not be reached").
    await page.getByLabel('API key').fill('lib_clé✓');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => alert.textContent()).toMatch(/printable ASCII/);
    expect(await alert.textContent()).not.toMatch(/could not be reached/);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The key lives in this tab's session storage only.
    expect(await page.evaluate('Object.values(sessionStorage)')).toContain(key);
    expect(await page.evaluate('Object.values(localStorage)')).not.toContain(key);
    expect(await page.evaluate('document.cookie')).toBe('');
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate('Object.values(sessionStorage)')).not.toContain(key);
    expect(outside).toEqual([]);
  });

  it('is usable from the keyboard alone: sign in with Enter, reach the navigation with Tab, open a page with Enter', async () => {
    const { page } = await harness.newPage();
    await page.goto(`${harness.server.url}/console`);
    // The key field has the focus when the page opens.
    await page.waitForFunction(
      'document.activeElement?.id && document.activeElement === document.getElementById(document.querySelector("label")?.htmlFor)',
    );
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const focusedName = () =>
      page.evaluate(
        'document.activeElement && (document.activeElement.textContent || document.activeElement.getAttribute("aria-label") || "").trim()',
      );
    let reached = false;
    for (let step = 0; step < 12 && !reached; step++) {
      await page.keyboard.press('Tab');
      reached = (await focusedName()) === 'Grep';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Grep', level: 2 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/grep');
  });

  it('opens every page from the navigation, at 1280 px and on a phone, with no serious accessibility violation', async () => {
    for (const phone of [false, true]) {
      const { page, outside } = await harness.newPage({ phone });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        // GET /v1/bucket answers 404 when no bucket is registered (the contract): chromium logs that answer, not an error.
        const noBucket = message.location().url.endsWith('/v1/bucket') && message.text().includes('status of 404');
        if (message.type() === 'error' && !noBucket) errors.push(message.text());
      });
      await signIn(page, harness.server, key);
      for (const name of ['Documents', 'Upload', 'Search', 'Grep', 'Chat', 'End users', 'Usage', 'Bucket']) {
        if (phone) await page.getByRole('button', { name: 'Navigation' }).click();
        await openPage(page, name);
        await page.getByRole('heading', { name, level: 2 }).waitFor();
        expect(await seriousViolations(page), `${name}${phone ? ' on a phone' : ''}`).toEqual([]);
      }
      await screenshot(page, phone ? 'phone-bucket' : 'desktop-bucket');
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    }
  });
});

describe('the web console when the service says 429', () => {
  let harness: ConsoleHarness;
  let key: string;
  beforeAll(async () => {
    // One request a second, a burst of three: a few searches in a row are throttled.
    harness = await startConsoleHarness({ rateLimit: { ratePerSecond: 1, burst: 3 } });
    key = await harness.server.newKey('console-throttled');
    const capture = await harness.server.api('/v1/capture', {
      key,
      body: { text: 'The lantern festival starts at dusk by the river.' },
    });
    expect(capture.status).toBe(201);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('waits as the service asks, says so, and then shows the answer (no error)', async () => {
    const { page } = await harness.newPage();
    const throttled: number[] = [];
    page.on('response', (response) => {
      if (response.status() === 429) throttled.push(response.status());
    });
    await signIn(page, harness.server, key);
    // Each visit asks the API again; the third or so is over the burst.
    for (const q of ['lantern festival', 'river at dusk', 'festival by the river', 'lantern by the river']) {
      await page.goto(`${harness.server.url}/console#/search?q=${encodeURIComponent(q)}`);
    }
    await page
      .getByRole('status')
      .filter({ hasText: /slow down/ })
      .waitFor();
    await screenshot(page, 'rate-limited');
    await page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first().waitFor({ timeout: 30_000 });
    expect(throttled.length).toBeGreaterThan(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
