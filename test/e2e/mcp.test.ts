import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMcpCommand } from '../../bin/mcp-command.js';
import { type LibraryOperations, OperationError } from '../../lambdas/mcp/operations.js';
import { createMcpServer, RESOURCE_PAGE } from '../../lambdas/mcp/tools.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * The MCP server as an assistant meets it, through the SDK's own client:
 * over Streamable HTTP (POST /v1/mcp on the local server, the tools over the
 * core's services in process) and over stdio (`library mcp`, the tools over
 * the typed client against the same server). Both transports run the same
 * cases: the same tools must answer alike.
 */
const root = join(import.meta.dirname, '..', '..');

let server: TestServer;
let key: string;
let otherKey: string;
/** Seeded material, each with a word found nowhere else. */
const shared = { word: 'quokkashared', id: '' };
const alice = { word: 'axolotlalice', id: '' };
const bob = { word: 'narwhalbob', id: '' };
const otherTenant = { word: 'pangolinother', id: '' };
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('mcp');
  otherKey = await server.newKey('mcp-other');
  const capture = async (body: Record<string, unknown>, withKey = key) => {
    const res = await server.api('/v1/capture', { key: withKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  shared.id = await capture({
    text: `The shared plan.\nThe ${shared.word} launch is on Friday.\nBring the slides.`,
    title: 'Shared plan',
    source_ref: 'notes/shared.md',
    metadata: { project: 'apollo' },
  });
  alice.id = await capture({
    text: `Alice's diary.\nThe ${alice.word} met the harbour master.\nThe tide turned at noon.`,
    title: 'Alice diary',
    end_user_id: 'alice',
  });
  bob.id = await capture({
    text: `Bob's notes.\nThe ${bob.word} sails at dawn.`,
    title: 'Bob notes',
    end_user_id: 'bob',
  });
  otherTenant.id = await capture({ text: `Another tenant. The ${otherTenant.word} is theirs.` }, otherKey);
  // A library with more documents than one page of resources.
  for (let start = 0; start < RESOURCE_PAGE + 5; start += 20) {
    const items = Array.from({ length: Math.min(20, RESOURCE_PAGE + 5 - start) }, (_, i) => ({
      text: `Pager note number ${start + i}.\nSecond line ${start + i}.`,
    }));
    const res = await server.api('/v1/capture/batch', { key, body: { items, end_user_id: 'pager' } });
    expect(res.body.succeeded).toBe(items.length);
  }
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
});

type Connect = (options?: { endUser?: string; key?: string }) => Promise<Client>;

async function connected(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<Client> {
  const client = new Client({ name: 'library-e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const overHttp = (options: { endUser?: string; key?: string; url?: string } = {}) =>
  connected(
    new StreamableHTTPClientTransport(
      new URL(
        `${options.url ?? server.url}/v1/mcp${options.endUser !== undefined ? `?end_user_id=${encodeURIComponent(options.endUser)}` : ''}`,
      ),
      {
        requestInit: { headers: { authorization: `Bearer ${options.key ?? key}` } },
      },
    ),
  );

const overStdio = (options: { endUser?: string; key?: string; url?: string; retries?: number } = {}) =>
  connected(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        join(root, 'node_modules/tsx/dist/cli.mjs'),
        join(root, 'bin/library.ts'),
        'mcp',
        '--url',
        options.url ?? server.url,
        '--key',
        options.key ?? key,
        ...(options.endUser !== undefined ? ['--end-user', options.endUser] : []),
        ...(options.retries !== undefined ? ['--retries', String(options.retries)] : []),
      ],
      cwd: root,
      env: { ...(process.env as Record<string, string>), POWERTOOLS_LOG_LEVEL: 'SILENT' },
      stderr: 'pipe',
    }),
  );

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const structured = (result: CallToolResult): any => {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent;
};
const errorText = (result: CallToolResult): string => {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};

describe.each([
  ['Streamable HTTP', overHttp],
  ['stdio', overStdio],
] as Array<[string, Connect]>)('MCP over %s', (_name, connect) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);

  it('lists the seven tools with their required arguments, schemas, descriptions and annotations', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'ask',
      'forget',
      'grep',
      'list_documents',
      'read_document',
      'remember',
      'search',
    ]);
    const required = Object.fromEntries(tools.map((t) => [t.name, [...(t.inputSchema.required ?? [])].sort()]));
    expect(required).toEqual({
      search: ['query'],
      grep: ['pattern'],
      ask: ['question'],
      remember: ['text'],
      list_documents: [],
      read_document: ['id'],
      forget: ['id'],
    });
    expect(Object.keys(byName.search!.inputSchema.properties!).sort()).toEqual([
      'cursor',
      'filter',
      'kind',
      'limit',
      'min_score',
      'query',
    ]);
    expect(Object.keys(byName.grep!.inputSchema.properties!).sort()).toEqual([
      'case_sensitive',
      'cursor',
      'file_id',
      'filter',
      'pattern',
    ]);
    expect(Object.keys(byName.ask!.inputSchema.properties!).sort()).toEqual(['conversation_id', 'filter', 'question']);
    expect(Object.keys(byName.remember!.inputSchema.properties!).sort()).toEqual([
      'metadata',
      'source_ref',
      'text',
      'title',
    ]);
    expect(Object.keys(byName.list_documents!.inputSchema.properties!).sort()).toEqual([
      'cursor',
      'filter',
      'limit',
      'source_ref',
    ]);
    expect(Object.keys(byName.read_document!.inputSchema.properties!).sort()).toEqual(['from_line', 'id', 'lines']);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.outputSchema, tool.name).toBeDefined();
      // A field more from a newer service does not fail the client's check of the structured content.
      expect(tool.outputSchema!.additionalProperties, tool.name).not.toBe(false);
    }
    expect(byName.forget!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.forget!.description).toMatch(/DESTRUCTIVE/);
    for (const name of ['search', 'grep', 'list_documents', 'read_document'])
      expect(byName[name]!.annotations?.readOnlyHint, name).toBe(true);
    for (const name of ['ask', 'remember'])
      expect(byName[name]!.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('searches: title, snippet, score, source_ref, file id and metadata, as structured content and as text', async () => {
    const result = await call(client, 'search', { query: `${shared.word} launch`, limit: 5 });
    const body = structured(result);
    const hit = body.results.find((r: { file_id: string }) => r.file_id === shared.id);
    expect(hit).toMatchObject({
      kind: 'file_excerpt',
      title: 'Shared plan',
      source_ref: 'notes/shared.md',
      metadata: { project: 'apollo' },
    });
    expect(hit.snippet).toContain(shared.word);
    expect(hit.score).toBeGreaterThan(0);
    // Where the passage is, as the REST result says: read_document can open it there.
    expect(hit).toMatchObject({ line_start: 1, line_end: 3 });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
    // kind, filter and min_score go through.
    expect(
      structured(await call(client, 'search', { query: shared.word, kind: ['chat'] })).results.every(
        (r: { kind: string }) => r.kind === 'chat',
      ),
    ).toBe(true);
    expect(
      structured(await call(client, 'search', { query: shared.word, filter: { 'metadata.project': 'zeus' } })).results,
    ).toEqual([]);
    const kept = structured(await call(client, 'search', { query: `${shared.word} slides`, min_score: 0.4 })).results;
    expect(kept.every((r: { score: number }) => r.score >= 0.4)).toBe(true);
  });

  it('greps: every matching line with its number', async () => {
    const body = structured(await call(client, 'grep', { pattern: shared.word.toUpperCase() }));
    expect(body.results).toEqual([
      expect.objectContaining({ file_id: shared.id, line: 2, snippet: `2: The ${shared.word} launch is on Friday.` }),
    ]);
    expect(
      structured(await call(client, 'grep', { pattern: shared.word.toUpperCase(), case_sensitive: true })).results,
    ).toEqual([]);
    expect(
      structured(await call(client, 'grep', { pattern: 'Bring', file_id: shared.id })).results.map(
        (r: { line: number }) => r.line,
      ),
    ).toEqual([3]);
    expect(
      structured(await call(client, 'grep', { pattern: shared.word, filter: { title: 'Other' } })).results,
    ).toEqual([]);
  });

  it('asks: a grounded reply with its sources, and a follow-up in the same conversation', async () => {
    const body = structured(await call(client, 'ask', { question: `When is the ${shared.word} launch?` }));
    expect(body.reply).toMatch(/Friday/);
    expect(body.sources.map((s: { file_id: string }) => s.file_id)).toContain(shared.id);
    expect(body.conversation_id).toMatch(/^cnv_/);
    const followUp = structured(
      await call(client, 'ask', { question: 'What should I bring?', conversation_id: body.conversation_id }),
    );
    expect(followUp.conversation_id).toBe(body.conversation_id);
    const unknown = errorText(
      await call(client, 'ask', { question: 'Anything?', conversation_id: 'cnv_00000000000000000000000000' }),
    );
    expect(unknown).toMatch(/^not_found: /);
  });

  it('remembers a note, then finds it by search and grep, and reads it back', async () => {
    const word = `${_name === 'stdio' ? 'stdio' : 'http'}wombat${Date.now()}`;
    const receipt = structured(
      await call(client, 'remember', {
        text: `Remember this: the ${word} code is 4711.`,
        title: 'A note',
        source_ref: `mcp/${word}`,
        metadata: { via: 'mcp' },
      }),
    );
    expect(receipt).toMatchObject({ ok: true, status: 'created', source_ref: `mcp/${word}` });
    expect(receipt.id).toMatch(/^file_/);
    const again = structured(await call(client, 'remember', { text: `Remember this: the ${word} code is 4711.` }));
    expect(again).toMatchObject({ status: 'deduped', id: receipt.id });
    const found = structured(await call(client, 'search', { query: `${word} code` }));
    expect(found.results[0]).toMatchObject({ file_id: receipt.id, title: 'A note', metadata: { via: 'mcp' } });
    expect(
      structured(await call(client, 'grep', { pattern: '4711', filter: { 'metadata.via': 'mcp' } })).results.map(
        (r: { file_id: string }) => r.file_id,
      ),
    ).toContain(receipt.id);
    expect(structured(await call(client, 'read_document', { id: receipt.id })).lines).toEqual([
      `Remember this: the ${word} code is 4711.`,
    ]);
    // It is in the shared library, as the REST API sees it.
    expect((await server.api(`/v1/documents/${receipt.id}`, { key })).status).toBe(200);
    // A rejected capture is a tool error that names its reason and still carries the receipt.
    const rejected = await call(client, 'remember', { text: '   ' });
    expect(errorText(rejected)).toMatch(/^empty_content: /);
    expect(rejected.structuredContent).toMatchObject({ status: 'rejected', reject_code: 'empty_content' });
  });

  it('hands JSON objects on as given: a metadata key or a filter field named __proto__ is not lost on the way', async () => {
    const text = `A prototype note over ${_name} ${Date.now()}.`;
    const receipt = structured(
      await call(
        client,
        'remember',
        JSON.parse(`{"text": ${JSON.stringify(text)}, "metadata": {"__proto__": "odd", "k": "v"}}`),
      ),
    );
    const listed = structured(
      await call(client, 'list_documents', { filter: { 'metadata.__proto__': 'odd' } }),
    ).documents;
    expect(listed.map((d: { id: string }) => d.id)).toEqual([receipt.id]);
    expect(Object.keys(listed[0].metadata).sort()).toEqual(['__proto__', 'k']);
    // A field the filter grammar does not know is refused, not dropped (which would match everything).
    expect(errorText(await call(client, 'list_documents', JSON.parse('{"filter": {"__proto__": "x"}}')))).toMatch(
      /^invalid_request: filter\.__proto__: /,
    );
    structured(await call(client, 'forget', { id: receipt.id }));
  });

  it('lists documents a page at a time, each once', async () => {
    const pager = await connect({ endUser: 'pager' });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = structured(await call(pager, 'list_documents', { limit: 20, ...(cursor ? { cursor } : {}) }));
      seen.push(...page.documents.map((d: { id: string }) => d.id));
      expect(page.count).toBe(page.documents.length);
      cursor = page.has_more ? page.next_cursor : undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(RESOURCE_PAGE + 5);
    const first = structured(await call(client, 'list_documents', { source_ref: 'notes/shared.md' }));
    expect(first.documents.map((d: { id: string }) => d.id)).toEqual([shared.id]);
    expect(first.documents[0]).toMatchObject({
      title: 'Shared plan',
      status: 'ready',
      line_count: 3,
      metadata: { project: 'apollo' },
    });
    expect(
      structured(await call(client, 'list_documents', { filter: { 'metadata.project': 'apollo' } })).documents.map(
        (d: { id: string }) => d.id,
      ),
    ).toEqual([shared.id]);
  });

  it('reads a document by lines', async () => {
    expect(structured(await call(client, 'read_document', { id: shared.id, from_line: 2, lines: 1 }))).toEqual({
      id: shared.id,
      line_count: 3,
      from_line: 2,
      lines: [`The ${shared.word} launch is on Friday.`],
      next_from_line: 3,
    });
  });

  it('walks the next pages of a search and of a grep with the next_cursor each answer offers, each result once', async () => {
    const pager = await connect({ endUser: 'pager' });
    for (const [tool, args, items] of [
      ['search', { query: 'pager note number', limit: 20 }, (r: { id: string }) => r.id],
      ['grep', { pattern: 'line' }, (r: { file_id: string; line: number }) => `${r.file_id}:${r.line}`],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = structured(await call(pager, tool, { ...args, ...(cursor ? { cursor } : {}) }));
        seen.push(...page.results.map(items as (r: unknown) => string));
        cursor = page.has_more ? page.next_cursor : undefined;
        pages++;
      } while (cursor && pages < 10);
      expect(pages, tool).toBeGreaterThan(1);
      expect(new Set(seen).size, tool).toBe(seen.length);
      expect(seen.length, tool).toBe(RESOURCE_PAGE + 5);
    }
    // A cursor of one query is refused with another, as the REST route refuses it.
    const first = structured(await call(pager, 'grep', { pattern: 'line' }));
    expect(errorText(await call(pager, 'grep', { pattern: 'note', cursor: first.next_cursor }))).toMatch(
      /^invalid_request: /,
    );
  });

  it('lists documents as resources, with paging, and reads one as text', async () => {
    const pager = await connect({ endUser: 'pager' });
    const first = await pager.listResources();
    expect(first.resources).toHaveLength(RESOURCE_PAGE);
    expect(first.nextCursor).toBeTruthy();
    const second = await pager.listResources({ cursor: first.nextCursor });
    expect(second.resources).toHaveLength(5);
    expect(second.nextCursor).toBeUndefined();
    const uris = [...first.resources, ...second.resources].map((r) => r.uri);
    expect(new Set(uris).size).toBe(RESOURCE_PAGE + 5);
    expect(uris.every((uri) => uri.startsWith('library://documents/file_'))).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['library://documents/{id}']);
    const read = await client.readResource({ uri: `library://documents/${shared.id}` });
    expect(read.contents).toEqual([
      expect.objectContaining({
        uri: `library://documents/${shared.id}`,
        text: `The shared plan.\nThe ${shared.word} launch is on Friday.\nBring the slides.`,
      }),
    ]);
    await expect(
      client.readResource({ uri: 'library://documents/file_00000000000000000000000000' }),
    ).rejects.toMatchObject({
      code: -32002,
      message: 'MCP error -32002: not_found: document file_00000000000000000000000000 not found',
    });
    // A malformed escape in the address is a bad argument, not an internal error.
    await expect(client.readResource({ uri: 'library://documents/%ZZ' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^MCP error -32602: invalid_request: /),
    });
  });

  it('answers errors as tool errors: an unknown document (not_found), bad arguments, a bad filter', async () => {
    expect(errorText(await call(client, 'read_document', { id: 'file_00000000000000000000000000' }))).toMatch(
      /^not_found: document file_00000000000000000000000000 not found/,
    );
    expect(errorText(await call(client, 'forget', { id: 'file_00000000000000000000000000' }))).toMatch(/^not_found: /);
    expect(errorText(await call(client, 'search', { limit: 5 }))).toMatch(/query/);
    expect(errorText(await call(client, 'search', { query: 'x', limit: 500 }))).toMatch(/limit/);
    // Blank, as GET /v1/search's q and POST /v1/chat's question are refused.
    expect(errorText(await call(client, 'search', { query: '  \n' }))).toMatch(/must not be blank at query/);
    expect(errorText(await call(client, 'ask', { question: '   ' }))).toMatch(/must not be blank at question/);
    // A malformed conversation id is a bad argument, as POST /v1/chat's 422 says, not a conversation not found.
    for (const conversation_id of ['cnv_bad', 'garbage with spaces'])
      expect(errorText(await call(client, 'ask', { question: 'hi', conversation_id }))).toMatch(
        /must be a conversation id from an earlier ask/,
      );
    expect(errorText(await call(client, 'grep', { pattern: 'x', case_sensitive: 'yes' }))).toMatch(/case_sensitive/);
    expect(errorText(await call(client, 'search', { query: 'x', filter: { colour: 'red' } }))).toMatch(
      /^invalid_request: filter\.colour: /,
    );
    expect(errorText(await call(client, 'list_documents', { cursor: 'not-a-cursor' }))).toMatch(/^invalid_request: /);
  });

  it("refuses an argument a tool does not take: a remember naming an end user stores nothing in the session's library", async () => {
    const text = `Meant for another end user ${Date.now()}.`;
    expect(errorText(await call(client, 'remember', { text, end_user_id: 'someone-else' }))).toMatch(/end_user_id/);
    expect(errorText(await call(client, 'search', { query: 'x', sourceRef: 'typo' }))).toMatch(/sourceRef/);
    expect(structured(await call(client, 'grep', { pattern: text })).results).toEqual([]);
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties).toBe(false);
  });

  it('forgets a document: it is gone everywhere', async () => {
    const receipt = structured(await call(client, 'remember', { text: `To be forgotten ${_name} ${Date.now()}.` }));
    expect(structured(await call(client, 'forget', { id: receipt.id }))).toEqual({
      id: receipt.id,
      deleted: true,
      blobs_deleted: 0,
      blobs_pending: 0,
    });
    expect(errorText(await call(client, 'read_document', { id: receipt.id }))).toMatch(/^not_found: /);
    expect((await server.api(`/v1/documents/${receipt.id}`, { key })).status).toBe(404);
  });

  it("keeps an end user's session to that end user's library", async () => {
    const asAlice = await connect({ endUser: 'alice' });
    expect(structured(await call(asAlice, 'list_documents')).documents.map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining([alice.id]),
    );
    const listed = structured(await call(asAlice, 'list_documents', { limit: 100 })).documents.map(
      (d: { id: string }) => d.id,
    );
    expect(listed).not.toContain(shared.id);
    expect(listed).not.toContain(bob.id);
    for (const word of [shared.word, bob.word, otherTenant.word]) {
      expect(structured(await call(asAlice, 'grep', { pattern: word })).results, word).toEqual([]);
      // Documents only: a question Alice asked is hers to find (kind chat), whatever words it holds.
      expect(
        structured(await call(asAlice, 'search', { query: word, kind: ['file_excerpt', 'image'] })).results.filter(
          (r: { snippet: string }) => r.snippet.includes(word),
        ),
        word,
      ).toEqual([]);
    }
    expect(
      structured(await call(asAlice, 'grep', { pattern: alice.word })).results.map(
        (r: { file_id: string }) => r.file_id,
      ),
    ).toEqual([alice.id]);
    const asked = structured(await call(asAlice, 'ask', { question: `When is the ${shared.word} launch?` }));
    expect(asked.sources.map((s: { file_id: string }) => s.file_id)).not.toContain(shared.id);
    for (const id of [shared.id, bob.id, otherTenant.id]) {
      expect(errorText(await call(asAlice, 'read_document', { id }))).toMatch(/^not_found: /);
      expect(errorText(await call(asAlice, 'forget', { id }))).toMatch(/^not_found: /);
      await expect(asAlice.readResource({ uri: `library://documents/${id}` })).rejects.toThrow(/not_found/);
    }
    // Nothing was forgotten outside Alice's library.
    expect((await server.api(`/v1/documents/${shared.id}`, { key })).status).toBe(200);
    expect((await server.api(`/v1/documents/${bob.id}?end_user_id=bob`, { key })).status).toBe(200);
    // What Alice's session remembers is Alice's alone.
    const note = structured(await call(asAlice, 'remember', { text: `Alice's secret ${_name} ${Date.now()}.` }));
    expect((await server.api(`/v1/documents/${note.id}?end_user_id=alice`, { key })).status).toBe(200);
    expect((await server.api(`/v1/documents/${note.id}`, { key })).status).toBe(404);
    // And the shared session sees none of Alice's.
    expect(structured(await call(client, 'grep', { pattern: alice.word })).results).toEqual([]);
    const sharedUris = (await client.listResources()).resources.map((r) => r.uri);
    expect(sharedUris).not.toContain(`library://documents/${alice.id}`);
  });

  it("never reaches another tenant's library", async () => {
    const other = await connect({ key: otherKey });
    expect(structured(await call(other, 'grep', { pattern: shared.word })).results).toEqual([]);
    expect(errorText(await call(other, 'read_document', { id: shared.id }))).toMatch(/^not_found: /);
    expect(
      structured(await call(other, 'grep', { pattern: otherTenant.word })).results.map(
        (r: { file_id: string }) => r.file_id,
      ),
    ).toEqual([otherTenant.id]);
  });
});

describe('MCP over Streamable HTTP: the endpoint', () => {
  it('refuses a bad key before any protocol: the client cannot connect', async () => {
    await expect(overHttp({ key: 'lib_notakeynotakeynotakeynotakeynotakeynotake' })).rejects.toThrow(
      /401|unauthorized/i,
    );
    const res = await server.api('/v1/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('is stateless: no session id; GET and DELETE are 405; a tools/call needs no initialize first', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const res = await server.api('/v1/mcp', {
      key,
      headers,
      body: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'grep', arguments: { pattern: shared.word } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { count: 1 } } });
    for (const method of ['GET', 'DELETE']) {
      const refused = await server.api('/v1/mcp', { key, method, headers });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow')).toBe('POST');
    }
    // A notification: accepted, no body.
    const note = await server.api('/v1/mcp', {
      key,
      headers,
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(note.status).toBe(202);
  });

  it('takes end_user_id in its query (and no other parameter), and a JSON body only', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const list = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'grep', arguments: { pattern: alice.word } },
    };
    const asAlice = await server.api('/v1/mcp?end_user_id=alice', { key, headers, body: list });
    expect(asAlice.body.result.structuredContent.results.map((r: { file_id: string }) => r.file_id)).toEqual([
      alice.id,
    ]);
    const bad = await server.api('/v1/mcp?end_user=alice', { key, headers, body: list });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('end_user: unknown parameter');
    const empty = await server.api('/v1/mcp?end_user_id=', { key, headers, body: list });
    expect(empty.status).toBe(422);
    const notJson = await server.api('/v1/mcp', {
      key,
      headers: { ...headers, 'content-type': 'application/json' },
      rawBody: '{"jsonrpc": ',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('invalid_json');
    const notAcceptable = await server.api('/v1/mcp', { key, headers: { accept: 'application/json' }, body: list });
    expect(notAcceptable.status).toBe(406);
  });
});

describe('MCP over stdio: the command', () => {
  it('needs a key (--key or LIBRARY_API_KEY) and says so on stderr, never on stdout; --help goes to stderr too', async () => {
    const lines: string[] = [];
    const stderr = { write: (text: string) => lines.push(text) };
    expect(await runMcpCommand([], { version: 'test', defaultUrl: 'http://127.0.0.1:8787', env: {}, stderr })).toBe(2);
    expect(lines.join('')).toBe('library mcp: no API key: pass --key KEY or set $LIBRARY_API_KEY\n');
    expect(
      await runMcpCommand(['--retries', '-1'], {
        version: 'test',
        defaultUrl: 'http://127.0.0.1:8787',
        env: {},
        stderr,
      }),
    ).toBe(2);
    expect(lines.join('')).toMatch(/--retries must be an integer >= 0/);
    expect(
      await runMcpCommand(['--url', 'not a url'], {
        version: 'test',
        defaultUrl: 'http://127.0.0.1:8787',
        env: { LIBRARY_API_KEY: 'lib_x' },
        stderr,
      }),
    ).toBe(2);
    expect(lines.join('')).toMatch(/baseUrl is not an absolute URL/);
    for (const endUser of ['', 'tab\there', 'x'.repeat(257)])
      expect(
        await runMcpCommand(['--end-user', endUser], {
          version: 'test',
          defaultUrl: 'http://127.0.0.1:8787',
          env: { LIBRARY_API_KEY: 'lib_x' },
          stderr,
        }),
        JSON.stringify(endUser),
      ).toBe(2);
    expect(lines.join('')).toMatch(/--end-user must be 1 to 256 characters/);
    expect(
      await runMcpCommand(['--help'], { version: 'test', defaultUrl: 'http://127.0.0.1:8787', env: {}, stderr }),
    ).toBe(0);
    expect(lines.join('')).toMatch(/Usage: library mcp/);
  });

  it('reports a bad key on the first tool call, as a tool error naming unauthorized', async () => {
    const client = await overStdio({ key: 'lib_notakeynotakeynotakeynotakeynotakeynotake' });
    expect(errorText(await call(client, 'list_documents'))).toMatch(/^unauthorized: /);
  });
});

describe('MCP over a throttled key (429)', () => {
  let throttled: TestServer;
  let slowKey: string;
  beforeAll(async () => {
    // A burst of 2, then one request every 20 s.
    throttled = await startTestServer({
      embedder: new HashingEmbedder(),
      rateLimit: { ratePerSecond: 0.05, burst: 2 },
    });
    slowKey = await throttled.newKey('slow');
  });
  afterAll(() => throttled?.close());

  it('over stdio: the tool error says rate_limited and when to retry', async () => {
    const client = await overStdio({ url: throttled.url, key: slowKey, retries: 0 });
    structured(await call(client, 'list_documents'));
    structured(await call(client, 'list_documents'));
    expect(errorText(await call(client, 'list_documents'))).toMatch(
      /^rate_limited: over the rate of 0\.05 requests\/s for this key Retry after \d+ s\.$/,
    );
  });

  it('over Streamable HTTP: the gateway answers 429 with Retry-After before the MCP server runs, and the client reports it', async () => {
    // The burst has been spent by the test above (the same key); the endpoint is behind the same throttling as every route.
    const res = await throttled.api('/v1/mcp', {
      key: slowKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.error).toMatchObject({ code: 'rate_limited', retry_after: expect.any(Number) });
    await expect(overHttp({ url: throttled.url, key: slowKey })).rejects.toThrow(/429|rate/i);
  });
});

describe('MCP tools: errors from the operations', () => {
  /** The tools over operations that fail as a throttled or broken service does. */
  async function failing(error: unknown): Promise<Client> {
    const fail = async () => {
      throw error;
    };
    const ops: LibraryOperations = {
      search: fail,
      grep: fail,
      ask: fail,
      remember: fail,
      listDocuments: fail,
      readDocument: fail,
      forget: fail,
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(ops, { version: 'test' }).connect(serverSide);
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  it('says when to retry a rate-limited call', async () => {
    const client = await failing(new OperationError('rate_limited', 'over the rate of 20 requests/s for this key', 3));
    const result = await call(client, 'search', { query: 'x' });
    expect(errorText(result)).toBe('rate_limited: over the rate of 20 requests/s for this key Retry after 3 s.');
  });

  it('never shows what an unexpected error says', async () => {
    const client = await failing(new Error('table library-prod-documents is on fire'));
    expect(errorText(await call(client, 'forget', { id: 'file_x' }))).toBe('internal_error: internal error');
  });
});
