import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedBaseUrl } from '../../lambdas/endpoints/openapi/served-base-url.js';
import { ROUTES } from '../../lambdas/endpoints/routes.js';
import { generateApiTypes } from '../../scripts/openapi-types.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * The served OpenAPI document, as a client author uses it: validated against
 * OpenAPI 3.1, turned into types by openapi-typescript, and a program written
 * with openapi-fetch against those types that calls every operation and
 * narrows on each status. The program must compile with no diagnostic (its
 * type assertions tie the generated types to the types the handlers return),
 * and it runs against the local server, where every body it gets must fit
 * the document's schema for its status.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let server: TestServer;
let key: string;
let document: any;
let workDir: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('codegen');
  document = await (await fetch(`${server.url}/v1/openapi.json`)).json();
  // Under node_modules/ so that the program resolves openapi-fetch; .cache is never committed.
  mkdirSync(join(repoRoot, 'node_modules/.cache'), { recursive: true });
  workDir = mkdtempSync(join(repoRoot, 'node_modules/.cache/openapi-codegen-'));
  writeFileSync(join(workDir, 'api-types.ts'), await generateApiTypes(document));
  writeFileSync(join(workDir, 'program.ts'), program(relative(workDir, repoRoot)));
});
afterAll(async () => {
  await server?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The client program: every operation, called through openapi-fetch with the generated types. */
function program(root: string): string {
  return `
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './api-types.js';
import type { CaptureReceipt } from '${root}/lambdas/core/capture.js';
import type { DocumentView } from '${root}/lambdas/core/documents.js';
import type { DocumentContentPage } from '${root}/lambdas/core/reading.js';
import type { EndUserView, ErasureReport } from '${root}/lambdas/core/end-users.js';
import type { RejectCode } from '${root}/lambdas/core/errors.js';
import type { ChatResponse } from '${root}/lambdas/core/chat/chat-service.js';
import type { UsageReport } from '${root}/lambdas/core/usage.js';
import type { ErrorBody, ErrorCode } from '${root}/lambdas/http/errors.js';

type Schemas = components['schemas'];
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<Op extends keyof operations> = operations[Op]['responses'];
type BodyAt<Op extends keyof operations, S extends keyof Responses<Op>> = Json<Responses<Op>[S]>;
/** Each type assignable to the other: the document and the code agree. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T | void => undefined;

// The generated types are the types the handlers answer with.
agree<Same<Schemas['Receipt'], CaptureReceipt>>();
agree<Same<Schemas['RejectCode'], RejectCode>>();
agree<Same<Schemas['ErrorCode'], ErrorCode>>();
agree<Same<Schemas['Error'], ErrorBody>>();
agree<Same<Schemas['Document'], DocumentView>>();
agree<Same<Schemas['DocumentContent'], DocumentContentPage>>();
agree<Same<BodyAt<'document-content', 409>, Schemas['Error']>>();
agree<Same<Schemas['EndUsersResponse']['end_users'][number], EndUserView>>();
agree<Same<Schemas['ErasureResponse'], ErasureReport>>();
agree<Same<Schemas['ChatResponse'], ChatResponse>>();
agree<Same<Schemas['UsageResponse'], UsageReport>>();
// Every capture answer is the receipt; a 503 may also be the gateway's Error, a 422 the Error of a query parameter.
agree<Same<BodyAt<'capture', 201>, Schemas['Receipt']>>();
agree<Same<BodyAt<'capture', 200>, Schemas['Receipt']>>();
agree<Same<BodyAt<'capture', 422>, Schemas['Receipt'] | Schemas['Error']>>();
agree<Same<BodyAt<'capture', 503>, Schemas['Receipt'] | Schemas['Error']>>();
agree<Same<BodyAt<'capture', 401>, Schemas['Error']>>();
agree<Same<BodyAt<'capture-batch', 200>['results'][number]['reject_code'], RejectCode | null>>();
agree<Same<Json<paths['/v1/capture/batch']['post']['requestBody']>['items'][number], Schemas['CaptureItem']>>();
agree<Same<BodyAt<'health', 503>, Schemas['HealthResponse'] | Schemas['Error']>>();
// Codes are enums, not free strings.
// @ts-expect-error not a reject code
const notRejectCode: Schemas['RejectCode'] = 'bogus';
// @ts-expect-error not an error code
const notErrorCode: Schemas['ErrorCode'] = 'bogus';
// @ts-expect-error a 422 may be a rejected receipt, which has no error member: narrow first
type NoErrorMember = BodyAt<'capture', 422>['error'];
// The headers are declared.
type CaptureHeaders = Responses<'capture'>[503]['headers'];
agree<Same<CaptureHeaders['Retry-After'], number>>();
agree<Same<Responses<'search'>[200]['headers']['x-request-id'], string>>();
agree<Same<Responses<'search'>[429]['headers']['Retry-After'], number>>();
void notRejectCode; void notErrorCode;

/** The body of a response at one status, typed from the document. */
function at<Op extends keyof operations, S extends keyof Responses<Op> & number>(
  _op: Op, res: { response: Response; data?: unknown; error?: unknown }, status: S,
): BodyAt<Op, S> | undefined {
  return res.response.status === status ? ((res.data ?? res.error) as BodyAt<Op, S>) : undefined;
}

export async function run(baseUrl: string, apiKey: string) {
  const api = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + apiKey } });
  const anonymous = createClient<paths>({ baseUrl });
  const seen: Array<{ operation: keyof operations; status: number; body: unknown }> = [];
  const note = (operation: keyof operations, res: { response: Response; data?: unknown; error?: unknown }) => {
    seen.push({ operation, status: res.response.status, body: res.data ?? res.error });
  };

  const health = await anonymous.GET('/v1/health');
  note('health', health);
  if (health.data) { const s: 'ok' | 'degraded' | 'unavailable' = health.data.status; void s; health.data.embedder.name satisfies string; }
  const down = at('health', health, 503);
  if (down && 'status' in down) down.dependencies satisfies Record<string, { state: 'ok' | 'failing'; detail: string | null }> | undefined;
  // With a valid key health adds its reasons; the types say they may be absent (an anonymous call).
  const keyedHealth = await api.GET('/v1/health');
  note('health', keyedHealth);
  if (keyedHealth.data) { keyedHealth.data.embedder.state satisfies 'ok' | 'degraded' | undefined; keyedHealth.data.ingest satisfies { backlog_documents: number; backlog_passages: number } | null | undefined; }

  const described = await anonymous.GET('/v1/openapi.json');
  note('openapi', described);

  const created = await api.POST('/v1/capture', { body: { text: 'The launch is on Friday.\\nBring the slides.', title: 'Launch', source_ref: 'notes/launch.md' } });
  note('capture', created);
  const fileId: string = created.data?.id ?? '';
  const again = await api.POST('/v1/capture', { body: { text: 'The launch is on Friday.\\nBring the slides.' } });
  note('capture', again);
  if (again.data?.status === 'deduped') again.data.id satisfies string | null;
  const rejected = await api.POST('/v1/capture', { body: { text: '   ' } });
  note('capture', rejected);
  // Narrowing on status: a 422 is the receipt, its reject_code an enum.
  const refused = at('capture', rejected, 422);
  const receipt = refused && 'reject_code' in refused ? refused : undefined;
  const rejectCode: RejectCode | null | undefined = receipt?.reject_code;
  const retryable: boolean | null | undefined = receipt?.retryable;
  // A query parameter the route does not take: the Error, before the body is read.
  const misplaced = await api.POST('/v1/capture', { body: { text: 'for bob?' }, params: { query: { end_user_id: 'bob' } as never } });
  note('capture', misplaced);
  const misplacedBody = at('capture', misplaced, 422);
  const misplacedMessage = misplacedBody && 'error' in misplacedBody ? misplacedBody.error.message : undefined;
  // openapi-fetch's own narrowing: error is a receipt or the Error body.
  if (rejected.error) {
    if ('reject_code' in rejected.error) rejected.error.reject_code satisfies RejectCode | null;
    else rejected.error.error.code satisfies ErrorCode;
  }
  const unavailable = at('capture', rejected, 503);
  if (unavailable && !('error' in unavailable)) unavailable.retryable satisfies boolean | null;
  const unauthorized = await anonymous.POST('/v1/capture', { body: { text: 'no key' } });
  note('capture', unauthorized);
  const unauthorizedCode: ErrorCode | undefined = at('capture', unauthorized, 401)?.error.code;

  const batch = await api.POST('/v1/capture/batch', { body: { items: [{ text: 'Budget: 40k for the launch.' }, { text: '' }], end_user_id: 'user-1' } });
  note('capture-batch', batch);
  const batchCodes = batch.data?.results.map((r) => r.reject_code) satisfies Array<RejectCode | null> | undefined;
  const tooMany = await api.POST('/v1/capture/batch', { body: { items: [] } });
  note('capture-batch', tooMany);
  const tooManyCode = at('capture-batch', tooMany, 422)?.error.code;

  const search = await api.GET('/v1/search', { params: { query: { q: 'launch day', limit: 5 } } });
  note('search', search);
  search.data?.results[0]?.kind satisfies 'file_excerpt' | 'image' | 'chat' | 'creation' | undefined;
  const badLimit = await api.GET('/v1/search', { params: { query: { q: 'x', limit: 500 } } });
  note('search', badLimit);

  const grep = await api.GET('/v1/grep', { params: { query: { pattern: 'Friday', case_sensitive: 'true' } } });
  note('grep', grep);
  const lines = grep.data?.results.map((r) => r.line);

  const list = await api.GET('/v1/documents', { params: { query: { limit: 10 } } });
  note('documents-list', list);
  const got = await api.GET('/v1/documents/{id}', { params: { path: { id: fileId } } });
  note('document-get', got);
  got.data?.status satisfies 'ready' | 'processing' | 'failed' | undefined;
  const missing = await api.GET('/v1/documents/{id}', { params: { path: { id: 'file_00000000000000000000000000' } } });
  note('document-get', missing);
  const missingCode = at('document-get', missing, 404)?.error.code;
  const content = await api.GET('/v1/documents/{id}/content', { params: { path: { id: fileId }, query: { from_line: 2, lines: 10 } } });
  note('document-content', content);
  const contentLines: string[] | undefined = content.data?.lines;
  content.data?.next_from_line satisfies number | null | undefined;
  const file = await api.GET('/v1/documents/{id}/file', { params: { path: { id: fileId } }, parseAs: 'arrayBuffer' });
  file.data satisfies ArrayBuffer | undefined;
  // The body is bytes: noted as what the document says it is, a string of them.
  seen.push({ operation: 'document-file', status: file.response.status, body: file.data ? new TextDecoder().decode(file.data) : file.error });
  const fileText = file.data ? new TextDecoder().decode(file.data) : undefined;
  const fileDisposition = file.response.headers.get('content-disposition');

  const users = await api.GET('/v1/end-users', { params: { query: {} } });
  note('end-users-list', users);
  const chat = await api.POST('/v1/chat', { body: { question: 'When is the launch?' } });
  note('chat', chat);
  // The MCP endpoint: one JSON-RPC message, answered with JSON (the protocol asks clients to accept both JSON and events).
  const mcp = await api.POST('/v1/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
  note('mcp', mcp);
  const mcpTools = (mcp.data?.result?.tools as Array<{ name: string }> | undefined)?.map((t) => t.name);
  const usage = await api.GET('/v1/usage', { params: { query: {} } });
  note('usage', usage);
  const erased = await api.DELETE('/v1/end-users/{id}', { params: { path: { id: 'user-1' } } });
  note('end-user-delete', erased);
  const patched = await api.PATCH('/v1/documents/{id}', { params: { path: { id: fileId } }, body: { title: 'Launch notes', metadata: { project: 'apollo', year: 2024, draft: null } } });
  note('document-update', patched);
  patched.data?.metadata satisfies Record<string, string | number | boolean | string[]> | undefined;
  const filtered = await api.GET('/v1/documents', { params: { query: { filter: JSON.stringify({ 'metadata.project': 'apollo' }) } } });
  note('documents-list', filtered);
  const deleted = await api.DELETE('/v1/documents/{id}', { params: { path: { id: fileId } } });
  note('document-delete', deleted);
  deleted.data?.deleted satisfies true | undefined;
  deleted.data?.blobs_pending satisfies number | undefined;

  // The caller-owned bucket: locally no AWS identity (the trust policy names a placeholder), nothing registered (404), a body that breaks a rule (422).
  const trust = await api.GET('/v1/bucket/trust-policy');
  note('bucket-trust-policy', trust);
  trust.data?.trust_policy.Statement satisfies Array<Record<string, unknown>> | undefined;
  const noBucket = await api.GET('/v1/bucket');
  note('bucket-get', noBucket);
  noBucket.data?.state satisfies 'ok' | 'failing' | undefined;
  const badBucket = await api.PUT('/v1/bucket', { body: { provider: 'r2', bucket: 'acme-library', access_key_id: 'AKIAEXAMPLE', secret_access_key: 'not-a-real-secret' } });
  note('bucket-put', badBucket);
  const badBucketCode = at('bucket-put', badBucket, 422)?.error.code;
  const unregistered = await api.DELETE('/v1/bucket');
  note('bucket-delete', unregistered);

  return {
    badBucketCode,
    seen,
    created: { status: created.response.status, receipt: created.data },
    again: { status: again.response.status, receipt: again.data },
    rejected: { status: rejected.response.status, rejectCode, retryable },
    unauthorized: { status: unauthorized.response.status, code: unauthorizedCode },
    batchCodes, tooManyCode, lines, missingCode,
    badLimit: { status: badLimit.response.status, code: badLimit.error?.error.code },
    misplaced: { status: misplaced.response.status, message: misplacedMessage },
    contentLines, fileText, fileDisposition, mcpTools,
    searchRequestId: search.response.headers.get('x-request-id'),
  };
}
`;
}

/** Compiles the program (no emit) and returns its diagnostics and those of the generated types. */
function compile(dir: string): string[] {
  const files = [join(dir, 'program.ts'), join(dir, 'api-types.ts')];
  const tsProgram = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
  });
  return files.flatMap((file) =>
    ts.getPreEmitDiagnostics(tsProgram, tsProgram.getSourceFile(file)).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      return `${d.file ? relative(dir, d.file.fileName) : ''}${where ? `:${where.line + 1}:${where.character + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }),
  );
}

/** Where a body breaks a schema of the document: a missing required field, a field it does not declare, a value off an enum or type. */
function misfits(schema: any, value: unknown, at = '$'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (schema.$ref) return misfits(resolveRef(schema.$ref), value, at);
  if (schema.anyOf || schema.oneOf) {
    const options: any[] = schema.anyOf ?? schema.oneOf;
    const fits = options.map((o) => misfits(o, value, at));
    return fits.some((f) => f.length === 0) ? [] : fits.sort((a, b) => a.length - b.length)[0]!;
  }
  if (schema.const !== undefined && value !== schema.const)
    return [`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`];
  if (schema.enum && !schema.enum.includes(value))
    return [`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`];
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const types: string[] | undefined = schema.type === undefined ? undefined : [schema.type].flat();
  if (types && !types.includes(type) && !(type === 'number' && types.includes('integer') && Number.isInteger(value))) {
    return [`${at}: a ${type}, expected ${types.join(' or ')}`];
  }
  if (type === 'array') return (value as unknown[]).flatMap((v, i) => misfits(schema.items, v, `${at}[${i}]`));
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    const properties: Record<string, unknown> = schema.properties ?? {};
    return [
      ...(schema.required ?? []).filter((k: string) => !(k in object)).map((k: string) => `${at}.${k}: missing`),
      ...Object.keys(object).flatMap((k) =>
        k in properties
          ? misfits(properties[k], object[k], `${at}.${k}`)
          : schema.additionalProperties === false
            ? [`${at}.${k}: not in the document`]
            : misfits(schema.additionalProperties, object[k], `${at}.${k}`),
      ),
    ];
  }
  return [];
}

function resolveRef(ref: string): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: any, part) => node?.[part], document);
}

function responseSchema(operationId: string, status: number): any {
  for (const item of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(item)) {
      if (operation.operationId !== operationId) continue;
      let response = operation.responses[String(status)];
      if (!response) return undefined;
      if (response.$ref) response = resolveRef(response.$ref);
      return (response.content['application/json'] ?? response.content['*/*']).schema;
    }
  }
  return undefined;
}

describe('the OpenAPI document a client is generated from', () => {
  it('is valid OpenAPI 3.1', async () => {
    const config = await createConfig({
      extends: ['minimal'],
      rules: { struct: 'error', 'no-unresolved-refs': 'error' },
    });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: `${server.url}/v1/openapi.json`,
      config,
    });
    expect(
      problems.filter((p) => p.severity === 'error').map((p) => `${p.location[0]?.pointer}: ${p.message}`),
    ).toEqual([]);
  });

  it('names where it was served, and tags, describes and exemplifies every operation', async () => {
    expect(document.servers[0].url).toBe(server.url);
    // It names the Host it was asked at: no cache may keep it for another.
    const served = await fetch(`${server.url}/v1/openapi.json`);
    expect(served.headers.get('cache-control')).toBe('no-store');
    expect(served.headers.get('vary')).toMatch(/\bHost\b/);
    const operations = ROUTES.map((r) => ({ route: r, op: document.paths[r.path][r.method.toLowerCase()] }));
    expect(operations.map((o) => o.op?.operationId)).toEqual(ROUTES.map((r) => r.name));
    const tags = new Set(document.tags.map((t: { name: string }) => t.name));
    for (const { route, op } of operations) {
      expect(op.tags.length, route.name).toBe(1);
      expect(tags.has(op.tags[0]), route.name).toBe(true);
      expect(op.description, route.name).toBeTruthy();
      const success = op.responses['200'] ?? op.responses['201'];
      // One example, or several named ones (health: without and with a key).
      // The file route answers bytes in the file's own type (no JSON, no example).
      if (route.name === 'document-file') expect(success.content['*/*'], route.name).toBeDefined();
      else if (route.name !== 'openapi')
        expect(
          success.content['application/json'].example ?? success.content['application/json'].examples,
          route.name,
        ).toBeDefined();
      if (route.method === 'POST')
        expect(op.requestBody.content['application/json'].examples, route.name).toBeDefined();
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const resolved = response.$ref ? resolveRef(response.$ref) : response;
        expect(resolved.headers?.['x-request-id'], `${route.name} ${status}`).toBeDefined();
        if (status === '429' || status === '503')
          expect(resolved.headers?.['Retry-After'], `${route.name} ${status}`).toBeDefined();
        if (route.auth) expect(op.responses['401'], route.name).toBeDefined();
      }
      // Every example fits its schema.
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const media = (response.$ref ? resolveRef(response.$ref) : response).content?.['application/json'];
        const examples = [media?.example, ...Object.values<any>(media?.examples ?? {}).map((e) => e.value)].filter(
          (e) => e !== undefined,
        );
        for (const example of examples)
          expect(misfits(media.schema, example), `${route.name} ${status} example`).toEqual([]);
      }
    }
    // Each error code is an enum member, each reject code too.
    expect(document.components.schemas.ErrorCode.enum).toHaveLength(13);
    expect(document.components.schemas.ErrorCode.enum).toContain('not_ready');
    expect(document.components.schemas.RejectCode.enum).toContain('backend_unavailable');
  });

  it('generates a client whose calls to every operation compile', () => {
    const diagnostics = compile(workDir);
    expect(diagnostics).toEqual([]);
  });

  it('runs that client against the server: every body fits the document at its status', async () => {
    const js = ts.transpileModule(program(relative(workDir, repoRoot)), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(workDir, 'program.mjs'), js);
    const { run } = (await import(pathToFileURL(join(workDir, 'program.mjs')).href)) as {
      run: (baseUrl: string, key: string) => Promise<any>;
    };
    // The client is given the served document's own server.
    const result = await run(document.servers[0].url, key);

    expect(new Set(result.seen.map((s: { operation: string }) => s.operation))).toEqual(
      new Set(ROUTES.map((r) => r.name)),
    );
    for (const { operation, status, body } of result.seen) {
      const schema = responseSchema(operation, status);
      expect(schema, `${operation} answered ${status}, which the document does not list`).toBeDefined();
      expect(misfits(schema, body), `${operation} ${status}`).toEqual([]);
    }
    expect(result.created.status).toBe(201);
    expect(result.created.receipt).toMatchObject({ status: 'created', source_ref: 'notes/launch.md' });
    expect(result.again).toMatchObject({ status: 200, receipt: { status: 'deduped', id: result.created.receipt.id } });
    expect(result.rejected).toEqual({ status: 422, rejectCode: 'empty_content', retryable: false });
    expect(result.badBucketCode).toBe('invalid_request');
    expect(result.unauthorized).toEqual({ status: 401, code: 'unauthorized' });
    expect(result.batchCodes).toEqual([null, 'empty_content']);
    expect(result.tooManyCode).toBe('invalid_request');
    expect(result.badLimit).toEqual({ status: 422, code: 'invalid_request' });
    expect(result.lines).toEqual([1]);
    expect(result.misplaced).toEqual({ status: 422, message: 'end_user_id: unknown parameter' });
    expect(result.contentLines).toEqual(['Bring the slides.']);
    expect(result.fileText).toBe('The launch is on Friday.\nBring the slides.');
    expect(result.fileDisposition).toBe('attachment; filename="Launch.txt"');
    expect(result.missingCode).toBe('not_found');
    expect(result.searchRequestId).toMatch(/^req_/);
    expect(result.mcpTools).toEqual(
      expect.arrayContaining(['search', 'grep', 'ask', 'remember', 'list_documents', 'read_document', 'forget']),
    );
  });
});

describe('servers', () => {
  const event = (init: { host?: string; proto?: string; stage: string; path: string }) =>
    ({
      path: '/v1/openapi.json',
      headers: {
        ...(init.host ? { Host: init.host } : {}),
        ...(init.proto ? { 'X-Forwarded-Proto': init.proto } : {}),
      },
      requestContext: { stage: init.stage, path: init.path },
    }) as unknown as APIGatewayProxyEvent;

  it('is the API Gateway stage URL on AWS, the origin locally, a base path under a custom domain', () => {
    expect(
      servedBaseUrl(
        event({
          host: 'abc123.execute-api.us-east-1.amazonaws.com',
          proto: 'https',
          stage: 'prod',
          path: '/prod/v1/openapi.json',
        }),
      ),
    ).toBe('https://abc123.execute-api.us-east-1.amazonaws.com/prod');
    expect(
      servedBaseUrl(
        event({ host: 'api.example.com', proto: 'https', stage: 'prod', path: '/library/v1/openapi.json' }),
      ),
    ).toBe('https://api.example.com/library');
    expect(
      servedBaseUrl(event({ host: 'api.example.com', proto: 'https', stage: 'prod', path: '/v1/openapi.json' })),
    ).toBe('https://api.example.com');
    expect(servedBaseUrl(event({ host: '127.0.0.1:8787', stage: 'local', path: '/v1/openapi.json' }))).toBe(
      'http://127.0.0.1:8787',
    );
    expect(servedBaseUrl(event({ stage: 'local', path: '/v1/openapi.json' }))).toBeNull();
    expect(
      servedBaseUrl(event({ host: 'evil.example/"><script>', stage: 'local', path: '/v1/openapi.json' })),
    ).toBeNull();
  });
});
