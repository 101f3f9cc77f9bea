import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from './local-server.js';

/**
 * The web console in a real headless browser: Debian's chromium (apt-get
 * install chromium; scripts/ensure-installed.mjs installs it where it can, or
 * CHROMIUM_PATH names another) driven by playwright-core, against the real
 * local server. Nothing is downloaded. Screenshots go to
 * test-artifacts/console/ (ignored by git).
 */
export function chromiumPath(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ].filter(Boolean) as string[];
  const found = candidates.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      `no chromium found (looked at ${candidates.join(', ')}): apt-get install -y chromium, or set CHROMIUM_PATH`,
    );
  return found;
}

/** Flags that keep a headless chromium off the network it cannot reach (it would try Google's hosts). */
const QUIET_CHROMIUM = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOTS = join(process.cwd(), 'test-artifacts', 'console');

export interface ConsoleHarness {
  server: TestServer;
  browser: Browser;
  /** A fresh tab (its own session storage) at 1280 x 800, or a phone's 390 x 844. */
  newPage(options?: { phone?: boolean }): Promise<{ page: Page; context: BrowserContext; outside: string[] }>;
  close(): Promise<void>;
}

/** The local server and a browser; every request a page makes to another origin is recorded in `outside`. */
export async function startConsoleHarness(
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<ConsoleHarness> {
  const server = await startTestServer(options);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: QUIET_CHROMIUM });
  const origin = new URL(server.url).origin;
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    async newPage({ phone = false } = {}) {
      const context = await browser.newContext({
        viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
        acceptDownloads: true,
        // No transitions (the console respects it): axe checks a dialog as it is, not half faded in.
        reducedMotion: 'reduce',
      });
      contexts.push(context);
      const page = await context.newPage();
      const outside: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== origin) outside.push(request.url());
      });
      page.setDefaultTimeout(15_000);
      return { page, context, outside };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.close();
    },
  };
}

/** Opens the console and signs in with `key` (the "API key" field and the "Sign in" button). */
export async function signIn(page: Page, server: TestServer, key: string): Promise<void> {
  await page.goto(`${server.url}/console`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Opens one of the navigation's pages by its link. */
export async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
}

/** axe-core's serious and critical violations on the page as it is now (none is the bar). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join('; ')})`,
    );
}

/** Keeps a screenshot of the page as a test artifact (not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Taken from the top (a full-page shot of a scrolled page draws the fixed header midway), then the page is
  // scrolled back to where it was, so what a test does next sees the page as it left it.
  const scrolled = await page.evaluate('[window.scrollX, window.scrollY]');
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await page.evaluate(`window.scrollTo(${(scrolled as number[]).join(', ')})`);
}
