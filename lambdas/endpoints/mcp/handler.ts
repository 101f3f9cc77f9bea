import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { createEndpoint } from '../../http/endpoint.js';
import { libraryOf } from '../../http/library.js';
import type { ReceiptListener } from '../../http/receipts.js';
import { type McpServices, serviceOperations } from '../../mcp/service-operations.js';
import { createMcpServer } from '../../mcp/tools.js';
import { contract } from './contract.js';

/** The request headers the MCP transport reads (content negotiation and the protocol version); nothing else is handed on, the key least of all. */
const MCP_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

function transportRequest(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && MCP_HEADERS.includes(name.toLowerCase())) headers.set(name, value);
  }
  // The URL is only the transport's bookkeeping: nothing is fetched. No body: the transport reads the message
  // from `parsedBody`, and writing it out again (JSON.stringify recurses) overflowed the stack on a message
  // nested some thousands of levels deep, a 500 for a body the endpoint had accepted as JSON.
  return new Request('http://library.invalid/v1/mcp', { method: 'POST', headers });
}

/**
 * POST /v1/mcp: the Model Context Protocol over Streamable HTTP, stateless
 * (docs/api-notes.md, "MCP"). Each request gets a server and a transport of
 * its own (no session id: any instance answers any request), bound to the
 * key's tenant and to the end user named by the `end_user_id` query
 * parameter (none: the shared library); it answers JSON, not a stream. The
 * tools call the core's services in process, as the REST routes do. The
 * body was read and checked as every JSON body is (one JSON-RPC message; a
 * batch is refused as the 2025-06-18 protocol dropped them).
 */
export const createHandler = (deps: McpServices & { version: string; onReceipt?: ReceiptListener }) =>
  createEndpoint<{ end_user_id?: string }, Record<string, unknown>>({
    auth: contract.auth,
    query: contract.request.query,
    // Any JSON object, handed to the MCP transport as parsed: the protocol checks the message (its McpMessage is for the document).
    body: 'object',
    async run({ tenantId, query, body, event, deadline }) {
      const ops = serviceOperations(deps, libraryOf(tenantId, query.end_user_id), {
        tenantId,
        deadline,
        onReceipt: deps.onReceipt,
      });
      const server = createMcpServer(ops, { version: deps.version });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(transportRequest(event), { parsedBody: body });
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name] = value;
        });
        return { status: response.status, content: await response.text(), headers };
      } finally {
        await server.close();
      }
    },
  });
