import * as z from 'zod/mini';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { json, type RouteDoc, requestIdOnly, success } from '../../http/openapi.js';
import { errorExample } from '../../http/openapi-examples.js';
import { ErrorResponse, meta } from '../../http/schemas.js';

const McpResponse = meta(
  z.object({
    jsonrpc: z.literal('2.0'),
    id: z.nullable(z.union([z.string(), z.number()])),
    result: z.optional(z.record(z.string(), z.unknown())),
    error: z.optional(z.object({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) })),
  }),
  {
    id: 'McpResponse',
    description:
      'The JSON-RPC 2.0 answer: `result`, or `error` (a protocol error; a failed tool call is a `result` with `isError: true`).',
  },
);

export const doc: RouteDoc = {
  tag: 'MCP',
  description: [
    "The Model Context Protocol over Streamable HTTP, stateless: each POST carries one JSON-RPC message and is answered with JSON (`Accept` must name both `application/json` and `text/event-stream`, as the protocol requires of clients). No session id is issued; GET and DELETE are 405. The session works on one library: the key's tenant, and the end user named by `end_user_id` (omitted: the shared library).",
    '',
    'Tools: `search`, `grep`, `ask`, `remember`, `list_documents`, `read_document`, `forget` (destructive). Resources: each document as `library://documents/{id}` (its text), listed a page at a time. A failed tool call is a result with `isError: true` whose text starts with the error code (`not_found: ...`). A notification is answered 202 with no body.',
    '',
    'Configure an assistant with this URL and the header `Authorization: Bearer <API_KEY>`, or run `npx library mcp --url URL --key KEY` as a stdio server (README, "AI assistants (MCP)").',
  ].join('\n'),
  requestExamples: {
    list: { summary: 'list the tools', value: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    call: {
      summary: 'call a tool',
      value: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'launch date', limit: 5 } },
      },
    },
  },
  responses: {
    '200': success('The JSON-RPC answer.', McpResponse, {
      jsonrpc: '2.0',
      id: 2,
      result: {
        content: [{ type: 'text', text: '{"query": "launch date", "count": 1, ...}' }],
        structuredContent: { query: 'launch date', count: 1, results: [], has_more: false, next_cursor: null },
      },
    }),
    '202': {
      description: 'A notification or a response from the client, accepted; no body.',
      headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
    },
    '400': {
      description:
        '`invalid_json` (the body is not a JSON object: the Error body), or a message the protocol refuses (a JSON-RPC error).',
      headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
      content: {
        'application/json': {
          schema: z.union([ErrorResponse, McpResponse]),
          examples: {
            json: { summary: 'not JSON', value: errorExample('invalid_json', 'body: not valid JSON') },
            protocol: {
              summary: 'not a JSON-RPC message',
              value: {
                jsonrpc: '2.0',
                id: null,
                error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
              },
            },
          },
        },
      },
    },
    '406': {
      description: '`Accept` does not name both `application/json` and `text/event-stream` (a JSON-RPC error).',
      headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
      content: json(McpResponse, {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
        },
      }),
    },
  },
};
