import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lambdas/endpoints/routes.js';
import { CorsPolicy, parseCorsOrigins } from '../../lambdas/http/cors.js';
import { createLocalHandlers } from '../../lambdas/local-gateway/handlers.js';
import { startLocalServer } from '../../lambdas/local-gateway/server.js';
import { type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/**
 * CORS on the local server (real HTTP, real fetch) and the API reference page
 * at /docs, loaded in a real headless browser: Debian's chromium driven by
 * playwright-core (scripts/ensure-installed.mjs installs chromium where it can).
 */
const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

let stack: LocalStack;
let dataDir: string;
let withCors: Awaited<ReturnType<typeof startLocalServer>>;
let withoutCors: Awaited<ReturnType<typeof startLocalServer>>;
let key: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'library-cors-'));
  stack = await openLocalStack({ dataDir, embedder: new HashingEmbedder() });
  key = (await stack.services.keys.create('cors-tenant')).api_key;
  const { handlers, authorizer } = createLocalHandlers(stack.services, { version: 'test' });
  const rateLimit = { ratePerSecond: 10_000, burst: 10_000 };
  withCors = await startLocalServer({
    handlers,
    authorizer,
    rateLimit,
    port: 0,
    corsOrigins: parseCorsOrigins(`${ALLOWED}, http://localhost:5173`),
  });
  withoutCors = await startLocalServer({ handlers, authorizer, rateLimit, port: 0 });
});

afterAll(async () => {
  await withCors?.close();
  await withoutCors?.close();
  stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const preflight = (base: string, path: string, origin: string, method = 'POST') =>
  fetch(base + path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  });
const corsHeaderNames = (headers: Headers) => [...headers.keys()].filter((h) => h.startsWith('access-control-'));

describe('CORS on the local server', () => {
  it('answers a preflight from an allowed origin: 204, the origin echoed, methods, headers, max age, Vary: Origin', async () => {
    const response = await preflight(withCors.url, '/v1/capture', ALLOWED);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST,OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization,content-type,mcp-protocol-version',
    );
    expect(response.headers.get('access-control-max-age')).toBe('7200');
    expect(response.headers.get('vary')).toBe('Origin');
    const documents = await preflight(withCors.url, '/v1/documents/file_x', 'http://localhost:5173', 'DELETE');
    expect(documents.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(documents.headers.get('access-control-allow-methods')).toBe('GET,PATCH,DELETE,OPTIONS');
  });

  it('gives a preflight from an unlisted origin no allow header, and an unknown path a 404', async () => {
    const response = await preflight(withCors.url, '/v1/capture', OTHER);
    expect(response.status).toBe(204);
    expect(corsHeaderNames(response.headers)).toEqual([]);
    expect(response.headers.get('vary')).toBe('Origin');
    // Not an exact match: no prefix, suffix or scheme games.
    for (const near of [
      'https://app.example.com.evil.net',
      'http://app.example.com',
      'https://app.example.com:8443',
      'null',
    ]) {
      expect(corsHeaderNames((await preflight(withCors.url, '/v1/search', near)).headers), near).toEqual([]);
    }
    const unknown = await preflight(withCors.url, '/v1/nowhere', ALLOWED);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('allows nothing by default: a preflight is 405 and no answer carries a CORS header', async () => {
    const response = await preflight(withoutCors.url, '/v1/capture', ALLOWED);
    expect(response.status).toBe(405);
    expect(corsHeaderNames(response.headers)).toEqual([]);
    const health = await fetch(`${withoutCors.url}/v1/health`, { headers: { origin: ALLOWED } });
    expect(health.status).toBe(200);
    expect(corsHeaderNames(health.headers)).toEqual([]);
    expect(health.headers.get('vary')).toBeNull();
  });

  it("a chat's answer varies by Accept (JSON or a stream) and, with CORS, by Origin too: both names kept", async () => {
    const ask = (url: string, accept: string) =>
      fetch(`${url}/v1/chat`, {
        method: 'POST',
        headers: { origin: ALLOWED, authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ question: 'What is in my library?' }),
      });
    for (const accept of ['application/json', 'text/event-stream']) {
      const plain = await ask(withoutCors.url, accept);
      await plain.text();
      expect(plain.status).toBe(200);
      expect(plain.headers.get('vary')).toBe('Accept');
      const shared = await ask(withCors.url, accept);
      await shared.text();
      expect(shared.headers.get('vary')).toBe('Accept, Origin');
      expect(shared.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    }
  });

  it('puts the CORS headers on an actual answer to an allowed origin, and none without Origin or from another', async () => {
    const allowed = await fetch(`${withCors.url}/v1/documents`, {
      headers: { origin: ALLOWED, authorization: `Bearer ${key}` },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(allowed.headers.get('access-control-expose-headers')).toBe('x-request-id,retry-after,content-disposition');
    expect(allowed.headers.get('vary')).toBe('Origin');
    expect(allowed.headers.get('x-request-id')).toMatch(/^req_/);

    const noOrigin = await fetch(`${withCors.url}/v1/documents`, { headers: { authorization: `Bearer ${key}` } });
    expect(noOrigin.status).toBe(200);
    expect(corsHeaderNames(noOrigin.headers)).toEqual([]);
    expect(noOrigin.headers.get('vary')).toBe('Origin');

    const other = await fetch(`${withCors.url}/v1/documents`, {
      headers: { origin: OTHER, authorization: `Bearer ${key}` },
    });
    expect(corsHeaderNames(other.headers)).toEqual([]);
  });

  it("puts them on errors too: the gateway's (401, 405, 404) and a handler's (422)", async () => {
    const unauthorized = await fetch(`${withCors.url}/v1/documents`, { headers: { origin: ALLOWED } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(((await unauthorized.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

    const invalid = await fetch(`${withCors.url}/v1/search?q=`, {
      headers: { origin: ALLOWED, authorization: `Bearer ${key}` },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(invalid.headers.get('access-control-expose-headers')).toBe('x-request-id,retry-after,content-disposition');

    const wrongMethod = await fetch(`${withCors.url}/v1/health`, { method: 'DELETE', headers: { origin: ALLOWED } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('puts them on a streamed chat (Accept: text/event-stream is a safelisted header: no new preflight) before its first event', async () => {
    const response = await fetch(`${withCors.url}/v1/chat`, {
      method: 'POST',
      headers: {
        origin: ALLOWED,
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ question: 'anything about kumquats?' }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-expose-headers')).toBe('x-request-id,retry-after,content-disposition');
    expect(await response.text()).toMatch(/^event: start\n/);
  });

  it('refuses an operator list that is not exact origins, naming the variable', () => {
    expect(parseCorsOrigins(' https://a.example , http://localhost:3000 ,,')).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(parseCorsOrigins(undefined)).toEqual([]);
    for (const bad of ['*', 'https://a.example/', 'a.example', 'https://a.example/app']) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(/LIBRARY_CORS_ORIGINS: .* is not an exact origin/);
    }
    expect(new CorsPolicy([]).responseHeaders(ALLOWED)).toEqual({});
  });
});

/** Debian's chromium (apt-get install chromium), or the one CHROMIUM_PATH names. */
function chromiumPath(): string {
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

describe('the API reference page (GET /docs)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves one HTML page with the renderer inlined (no CDN), cacheable by ETag', async () => {
    const response = await fetch(`${withoutCors.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('SwaggerUIBundle');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="https?:/);
    const etag = response.headers.get('etag')!;
    const again = await fetch(`${withoutCors.url}/docs`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('renders the operations of /v1/openapi.json in a real headless browser, with no request leaving the server', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(withoutCors.url) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${withoutCors.url}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    expect(await page.locator('.info .title').first().textContent({ timeout: 5_000 })).toContain('Library API');
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    const operations = await page.locator('.opblock-summary-description').allInnerTexts();
    for (const route of ROUTES) {
      expect(
        paths.map((p) => p.replace(/\u200b/g, '').trim()),
        route.path,
      ).toContain(route.path);
    }
    expect(operations).toEqual(
      expect.arrayContaining(['Capture one text or file', 'Hybrid search by meaning and words']),
    );
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
