import * as z from 'zod/mini';
import { meta, NewEndUserId } from '../../http/schemas.js';
import { CALLER_BLOBS } from '../access.js';
import type { RouteContract } from '../route-contract.js';

/** The end user whose library the MCP session works on (API.md, "Parameters"); the body is a JSON-RPC message. */
const McpQuery = z.object({
  end_user_id: meta(z.optional(NewEndUserId), {
    description:
      "Binds the session to that end user's library (every tool and resource works on it alone); omitted: the tenant's shared library.",
  }),
});

const McpMessage = meta(z.record(z.string(), z.unknown()), {
  id: 'McpMessage',
  description:
    'One JSON-RPC 2.0 message of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, `resources/list`, `resources/read`, a notification, ...). ' +
    'Batches (arrays) are not taken: the 2025-06-18 protocol dropped them.',
});

export const contract = {
  name: 'mcp',
  method: 'POST',
  path: '/v1/mcp',
  auth: true,
  summary: 'The library as an MCP server (tools and resources for AI assistants)',
  // The body's schema is what the document shows; the handler hands the message to the MCP transport as parsed (handler.ts).
  request: { query: McpQuery, body: McpMessage },
  // The MCP tools: search, grep, ask (chat, answered whole: no streamed reply), remember (a text capture: no bytes stored,
  // its embedding queued when the request cannot finish it; no file is read, so no reader thread and no Textract),
  // list, read and forget (delete everywhere: the service's blobs and callers' buckets) documents.
  access: {
    documents: 'write',
    usage: 'write',
    blobs: { delete: true },
    search: 'write',
    embed: true,
    chat: true,
    chatStreams: false,
    ingestQueue: true,
    callerBuckets: CALLER_BLOBS,
    endUserLogKey: true,
  },
} as const satisfies RouteContract;
