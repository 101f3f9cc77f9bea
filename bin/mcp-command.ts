import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command, InvalidArgumentError } from 'commander';
import { Library } from '../client/src/index.js';
import { createMcpServer } from '../lambdas/mcp/tools.js';
import { parseOrExit } from './command-line.js';
import { clientOperations } from './mcp-client-operations.js';

/**
 * `library mcp`: the library as an MCP server on stdio, for an assistant
 * that starts it (Claude Desktop, Claude Code, Cursor: README, "AI
 * assistants (MCP)"). The tools (lambdas/mcp/tools.ts) call a running
 * service through the typed client with the key, on one library: the end
 * user's given with --end-user, else the shared one. stdout carries the
 * protocol's messages only; everything else goes to stderr.
 */
export async function runMcpCommand(
  argv: string[],
  context: { version: string; defaultUrl: string; env?: NodeJS.ProcessEnv; stderr?: { write(s: string): unknown } },
): Promise<number> {
  const env = context.env ?? process.env;
  const stderr = context.stderr ?? process.stderr;
  const program = new Command('library mcp')
    .description(
      'Serve a library to an AI assistant over the Model Context Protocol on stdio (tools: search, grep, ask, remember, list_documents, read_document, forget).',
    )
    .option(
      '-u, --url <url>',
      `API URL, the service root or the deployed .../v1 URL (default $LIBRARY_URL, else ${context.defaultUrl})`,
    )
    .option('-k, --key <key>', 'API key (default $LIBRARY_API_KEY)')
    .option('-e, --end-user <id>', "the end user's library (default $LIBRARY_END_USER_ID, else the shared library)")
    .option(
      '--retries <n>',
      'retries of a call answered 429 or 503 (Retry-After honoured) before the tool reports it',
      (value: string) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('--retries must be an integer >= 0');
        return n;
      },
      2,
    )
    .version(context.version, '-V, --version')
    .helpOption('-h, --help')
    .exitOverride()
    // Help, version and usage errors go to stderr: stdout is the protocol's.
    .configureOutput({ writeOut: (s) => stderr.write(s), writeErr: (s) => stderr.write(s) });
  const exit = parseOrExit(program, argv);
  if (exit !== null) return exit;
  const opts = program.opts<{ url?: string; key?: string; endUser?: string; retries: number }>();
  const apiKey = opts.key ?? env.LIBRARY_API_KEY;
  if (!apiKey) {
    stderr.write('library mcp: no API key: pass --key KEY or set $LIBRARY_API_KEY\n');
    return 2;
  }
  const url = opts.url ?? env.LIBRARY_URL ?? context.defaultUrl;
  const endUserId = opts.endUser ?? (env.LIBRARY_END_USER_ID || undefined);
  // Refused now, not at every tool call: the service would refuse the id in each (API.md: 1 to 256 characters, no control characters).
  if (endUserId !== undefined && (endUserId.length === 0 || endUserId.length > 256 || /\p{Cc}/u.test(endUserId))) {
    stderr.write(
      'library mcp: --end-user must be 1 to 256 characters with no control characters (leave it out for the shared library)\n',
    );
    return 2;
  }
  let library: Library;
  try {
    // By default two retries of a 429 or 503 (Retry-After honoured): an assistant's call neither fails at once nor hangs.
    library = new Library({ baseUrl: url, apiKey, retries: opts.retries, timeoutMs: 60_000 });
  } catch (error) {
    stderr.write(`library mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const server = createMcpServer(clientOperations(library, endUserId), { version: context.version });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  stderr.write(
    `library mcp: serving ${library.baseUrl} (${endUserId !== undefined ? `end user ${JSON.stringify(endUserId)}` : 'shared library'}) on stdio\n`,
  );
  // Until the assistant closes stdin.
  process.stdin.once('end', () => void server.close());
  await closed;
  return 0;
}
