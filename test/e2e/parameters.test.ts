import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES, ROUTES } from '../../lambdas/endpoints/routes.js';
import type { RouteDefinition } from '../../lambdas/http/route.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Query parameters (API.md "Parameters"): a parameter a route does not
 * document is 422 naming it, on every route of the route table (a route
 * added later is covered by the same loop), and `end_user_id` is taken only
 * where the contract puts it. The documented parameters are read from the
 * served OpenAPI document, so what a client is told is what the service takes.
 */
let server: TestServer;
let key: string;
let documentId: string;
let document: { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>> };

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('parameters');
  documentId = (await server.api('/v1/capture', { key, body: { text: 'The parameters test holds one line.' } })).body
    .id;
  await server.api('/v1/capture', { key, body: { text: 'Alice keeps a note.', end_user_id: 'alice' } });
  document = (await server.api('/v1/openapi.json')).body;
});
afterAll(() => server.close());

/** The route's path with its parameters filled: a real document, a real end user. */
const pathOf = (route: RouteDefinition) =>
  route.path.replace('{id}', route.path.startsWith('/v1/end-users/') ? 'alice' : documentId);

/** The query parameters the served document lists for the route. */
const documented = (route: RouteDefinition): string[] =>
  (document.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => p.name);

/** The route called with this query string; a route that reads a body is sent an empty JSON object (the query is checked first). */
function call(route: RouteDefinition, query: string) {
  const takesBody = route.method !== 'GET' && route.method !== 'DELETE';
  return server.api(`${pathOf(route)}?${query}`, {
    key: route.auth ? key : undefined,
    method: route.method,
    ...(takesBody ? { body: {} } : {}),
  });
}

const refused = (res: { status: number; body: any }, name: string) => {
  expect(res.status).toBe(422);
  expect(res.body.error).toMatchObject({ code: 'invalid_request', message: `${name}: unknown parameter` });
};

describe('a query parameter a route does not document', () => {
  it('is listed in the OpenAPI document for every route, so the loops below cover them all', () => {
    for (const route of ROUTES)
      expect(document.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'is 422 naming it on %s',
    async (_label, route) => {
      refused(await call(route, 'lmit=10'), 'lmit');
      // Before the values of the others: a misspelt name is the likelier cause of a missing or odd value.
      refused(
        await call(
          route,
          `${documented(route)
            .map((name) => `${name}=`)
            .join('&')}${documented(route).length ? '&' : ''}lmit=10`,
        ),
        'lmit',
      );
      // An empty name is no parameter of any route.
      refused(await call(route, '=x'), '""');
    },
  );

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'is not said of a parameter %s documents',
    async (_label, route) => {
      for (const name of documented(route)) {
        const res = await call(route, `${name}=1`);
        // The value may well be refused (422 naming the field), but never the name.
        expect(res.body?.error?.message ?? '', `${route.method} ${route.path} ${name}`).not.toMatch(
          /unknown parameter/,
        );
      }
    },
  );

  it('is refused on the routes that document none (health and the OpenAPI document included) whatever its name', async () => {
    const bare = ROUTES.filter((route) => documented(route).length === 0).map((route) => route.name);
    expect(bare).toEqual(
      expect.arrayContaining(['health', 'openapi', 'capture', 'capture-batch', 'chat', 'bucket-put', 'bucket-get']),
    );
    refused(await server.api('/v1/health?verbose=1'), 'verbose');
    refused(await server.api('/v1/openapi.json?format=yaml'), 'format');
  });

  it('names the first unknown parameter in the order sent, cut when very long', async () => {
    refused(await server.api('/v1/search?q=x&zeta=1&alpha=2', { key }), 'zeta');
    const long = 'p'.repeat(300);
    const res = await server.api(`/v1/search?q=x&${long}=1`, { key });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(`${'p'.repeat(64)}…: unknown parameter`);
  });

  it('refuses a parameter given twice, naming it: it would read one library or the other', async () => {
    for (const query of ['end_user_id=alice&end_user_id=bob', 'limit=5&limit=1']) {
      const res = await server.api(`/v1/documents?${query}`, { key });
      expect(res.status).toBe(422);
      expect(res.body.error.message).toMatch(/^(end_user_id|limit): given more than once$/);
    }
    expect((await server.api('/v1/documents?end_user_id=alice&limit=5', { key })).status).toBe(200);
  });

  it('refuses a number not written in decimal digits, naming it: "", "0x10", "1e1" and " 10" are no limit', async () => {
    for (const query of ['limit=', 'limit=0x10', 'limit=1e1', 'limit=%2010', 'min_score=', 'min_score=0x1']) {
      const res = await server.api(`/v1/search?q=line&${query}`, { key });
      expect(res.status, query).toBe(422);
      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        message: `${query.split('=')[0]}: must be a number written in decimal digits`,
      });
    }
    const content = await server.api(`/v1/documents/${documentId}/content?from_line=0x2`, { key });
    expect(content.status).toBe(422);
    // Decimal numbers read as before; a fraction where an integer is asked is refused by the range's own rule.
    expect((await server.api('/v1/search?q=line&limit=5&min_score=0.25', { key })).status).toBe(200);
    expect((await server.api('/v1/search?q=line&limit=2.5', { key })).status).toBe(422);
  });

  it('is answered only after the key is checked: no key is still 401', async () => {
    const res = await server.api('/v1/documents?lmit=1');
    expect(res.status).toBe(401);
  });

  it('leaves the pages alone (the reference, the console): not the API, they ignore query parameters (a link with a tracking tag still opens them)', async () => {
    expect(PAGES.map((page) => page.name)).toEqual(['docs', 'console', 'console-asset']);
    for (const path of ['/docs', '/console']) {
      const page = await fetch(`${server.url}${path}?utm_source=newsletter`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
  });
});

describe('end_user_id is taken only where the contract puts it', () => {
  it('is a query parameter of the GET, DELETE and PATCH routes that address a library, and of no POST route (there it is a body field) but the MCP endpoint (its body is a protocol message)', () => {
    const taking = ROUTES.filter((route) => documented(route).includes('end_user_id'));
    for (const route of taking)
      expect(route.name === 'mcp' ? ['POST'] : ['GET', 'DELETE', 'PATCH'], route.name).toContain(route.method);
    for (const route of ROUTES.filter((r) => r.method === 'POST' && r.name !== 'mcp'))
      expect(documented(route), route.name).not.toContain('end_user_id');
    expect(taking.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'search',
        'grep',
        'documents-list',
        'document-get',
        'document-delete',
        'document-content',
        'document-file',
        'mcp',
      ]),
    );
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: taken where documented, else 422',
    async (_label, route) => {
      const res = await call(route, 'end_user_id=bob');
      if (documented(route).includes('end_user_id'))
        expect(res.body?.error?.message ?? '').not.toMatch(/unknown parameter/);
      else refused(res, 'end_user_id');
    },
  );

  it('POST /v1/capture?end_user_id=bob captures nothing, into no library', async () => {
    const sharedBefore = (await server.api('/v1/documents?limit=100', { key })).body.count;
    const text = `Meant for Bob ${crypto.randomUUID()}`;
    refused(await server.api('/v1/capture?end_user_id=bob', { key, body: { text } }), 'end_user_id');
    refused(await server.api('/v1/capture/batch?end_user_id=bob', { key, body: { items: [{ text }] } }), 'end_user_id');
    refused(
      await server.api('/v1/chat?end_user_id=bob', { key, body: { question: 'What is meant for Bob?' } }),
      'end_user_id',
    );
    expect((await server.api('/v1/documents?limit=100', { key })).body.count).toBe(sharedBefore);
    expect((await server.api('/v1/documents?end_user_id=bob', { key })).body.count).toBe(0);
    expect((await server.api(`/v1/grep?pattern=${encodeURIComponent(text)}`, { key })).body.results).toEqual([]);
    const users = (await server.api('/v1/end-users', { key })).body.end_users.map((u: { id: string }) => u.id);
    expect(users).not.toContain('bob');
    // In the body, where the contract puts it, it is Bob's.
    const captured = await server.api('/v1/capture', { key, body: { text, end_user_id: 'bob' } });
    expect(captured.status).toBe(201);
    expect((await server.api('/v1/documents?end_user_id=bob', { key })).body.count).toBe(1);
    expect((await server.api('/v1/documents?limit=100', { key })).body.count).toBe(sharedBefore);
  });

  it('refuses "." and ".." as an end user to store for (no URL could name them to erase them), and stores nothing', async () => {
    const text = `A note for a dot ${crypto.randomUUID()}`;
    for (const id of ['.', '..']) {
      const alone = await server.api('/v1/capture', { key, body: { text, end_user_id: id } });
      expect(alone.status).toBe(422);
      expect(alone.body).toMatchObject({ status: 'rejected', reject_code: 'invalid_item' });
      expect(alone.body.detail).toMatch(/^end_user_id: /);
      expect(
        (await server.api('/v1/capture/batch', { key, body: { items: [{ text }], end_user_id: id } })).status,
      ).toBe(422);
      const item = await server.api('/v1/capture/batch', { key, body: { items: [{ text, end_user_id: id }] } });
      expect(item.body.results[0]).toMatchObject({ ok: false, status: 'rejected', reject_code: 'invalid_item' });
      expect(
        (await server.api('/v1/chat', { key, body: { question: 'what is there?', end_user_id: id } })).status,
      ).toBe(422);
    }
    const users = (await server.api('/v1/end-users', { key })).body.end_users.map((u: { id: string }) => u.id);
    expect(users).not.toContain('.');
    expect(users).not.toContain('..');
    // A name with dots in it is an end user like any other.
    expect((await server.api('/v1/capture', { key, body: { text, end_user_id: '...' } })).status).toBe(201);
    expect((await server.api('/v1/end-users/...', { key, method: 'DELETE' })).status).toBe(200);
    expect((await server.api('/v1/documents?end_user_id=...', { key })).body.count).toBe(0);
  });

  it('refuses a query parameter whose escapes are not UTF-8 (it was read as U+FFFD), and takes a stray percent sign as written', async () => {
    for (const path of [
      '/v1/documents?end_user_id=%FE',
      '/v1/search?q=%ED%A0%80',
      '/v1/grep?pattern=%C0%80',
      '/v1/search?q=caf%C3',
    ]) {
      const res = await server.api(path, { key });
      expect(res.status, path).toBe(422);
      expect(res.body.error.message, path).toMatch(/^(end_user_id|q|pattern): must be URL-encoded UTF-8$/);
    }
    expect((await server.api('/v1/documents?%FF=1', { key })).body.error.message).toBe(
      'a query parameter name: must be URL-encoded UTF-8',
    );
    const users = (await server.api('/v1/end-users', { key })).body.end_users.map((u: { id: string }) => u.id);
    expect(users).not.toContain('\uFFFD');
    for (const path of ['/v1/search?q=100%', '/v1/search?q=caf%C3%A9+au+lait', '/v1/grep?pattern=50%25']) {
      expect((await server.api(path, { key })).status, path).toBe(200);
    }
  });

  it("takes search's kind as a comma list of exact kinds: an empty element or one with spaces is 422", async () => {
    expect((await server.api('/v1/search?q=note&kind=chat,file_excerpt', { key })).status).toBe(200);
    for (const kind of ['chat,', ',chat', 'chat,,creation', 'chat%20', '%20chat', ',']) {
      const res = await server.api(`/v1/search?q=note&kind=${kind}`, { key });
      expect(res.status, kind).toBe(422);
      expect(res.body.error.message, kind).toMatch(/^kind: /);
    }
  });
});
