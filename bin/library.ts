/**
 * The operator's command: `library serve` runs the service locally;
 * `library keys create|list|rotate|revoke` manages API keys (they work with
 * the server running or not: both open the same SQLite file in WAL mode);
 * `library mcp` serves a library to an AI assistant on stdio.
 */
// First: on a Node.js older than package.json's engines this stops, saying what to run on, before anything loads.
import './node-version.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../lambdas/adapters/local/database.js';
import { SqliteTenantStore } from '../lambdas/adapters/local/sqlite-tenant-store.js';
import { systemClock } from '../lambdas/core/dates.js';
import { KeyService } from '../lambdas/core/keys.js';
import { createLocalHandlers } from '../lambdas/local-gateway/handlers.js';
import { startLocalServer } from '../lambdas/local-gateway/server.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { readLocalConfig } from './config.js';
import { runKeysCommand } from './keys-command.js';
import { runMcpCommand } from './mcp-command.js';
import { runPushCommand } from './push.js';
import { runReindexCommand } from './reindex-command.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const USAGE = `usage:
  library serve                         run the service on $HOST:$PORT (default 127.0.0.1:8787), data in $LIBRARY_DATA_DIR
  library keys create --tenant NAME     create the tenant if new, and a key for it (on a folder with no
                                        library yet, starts one there)
  library keys list                     every key (prefix, tenant, state); never the secret
                                        (keys list|rotate|revoke fail, exit 1, when $LIBRARY_DATA_DIR holds no library)
  library keys rotate --tenant NAME     a new key for the tenant; its old keys stop working
  library keys revoke --key KEY_ID      revoke one key
  library keys revoke --tenant NAME     revoke every key of a tenant
  library push FOLDER [--key KEY] [--url URL] [--end-user ID] [--prune] [--dry-run] [--json]
                    [--concurrency N] [--wait] [--metadata KEY=VALUE ...] [--exclude PATTERN ...]
                                        keep FOLDER in step with a library; .libraryignore files leave
                                        paths out (library push --help)
  library reindex [--batch N]           re-embed every passage, chat and creation with the embedder configured now
                                        ($LIBRARY_EMBED_URL and $LIBRARY_EMBED_MODEL, or the offline default);
                                        resumable; best with the server stopped (library reindex --help)
  library mcp [--url URL] [--key KEY] [--end-user ID] [--retries N]
                                        serve a library to an AI assistant (MCP on stdio; library mcp --help)`;

const SERVE_USAGE = `usage: library serve

Runs the service on $HOST:$PORT (default 127.0.0.1:8787), its data in $LIBRARY_DATA_DIR (default ./.library);
on a folder with no tenant yet, creates the tenant "default" and prints its key once. It takes no options:
the environment configures it (README.md, "A first session"): LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL (an
OpenAI-compatible embedder), LIBRARY_CHAT_URL and LIBRARY_CHAT_MODEL (a chat model), LIBRARY_CORS_ORIGINS,
LIBRARY_VECTOR_CACHE_MB, LIBRARY_RATE_LIMIT_RPS and LIBRARY_RATE_LIMIT_BURST, among others.`;

async function serve(args: string[]) {
  // Asked for help, or given an option it does not take: say so, and start nothing (no folder, no tenant).
  let help: boolean | undefined;
  try {
    ({ help } = parseArgs({ args, options: { help: { type: 'boolean', short: 'h' } }, strict: true }).values);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${SERVE_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (help) return console.log(SERVE_USAGE);
  const config = readLocalConfig();
  const stack = await openLocalStack({
    dataDir: config.dataDir,
    chat: config.chat,
    embed: config.embed,
    buckets: config.buckets,
    warmReaders: true,
    searchThreads: true,
    vectorCacheBytes: config.vectorCacheMb * 2 ** 20,
  });
  if ((await stack.ports.tenants.countTenants()) === 0) {
    const issued = await stack.services.keys.create('default');
    console.log(`Created tenant "default". Its API key (shown once, keep it):\n  ${issued.api_key}`);
  }
  const { handlers, authorizer } = createLocalHandlers(stack.services, {
    version: VERSION,
    backlog: () => stack.queue.backlog(),
    dependencies: stack.dependencies,
  });
  const server = await startLocalServer({
    handlers,
    authorizer,
    rateLimit: config.rateLimit,
    corsOrigins: config.corsOrigins,
    host: config.host,
    port: config.port,
  });
  console.log(
    `Library ${VERSION} listening on ${server.url} (data in ${config.dataDir}; embedder ${stack.ports.embedder.name}, ${stack.ports.embedder.dimensions} dimensions)`,
  );
  console.log(
    `Web console: ${server.url}/console; API reference: ${server.url}/docs${config.corsOrigins.length ? `; CORS allows ${config.corsOrigins.join(', ')}` : ''}`,
  );
  const stop = async () => {
    await server.close();
    // Replies' vectors still being computed get a few seconds; what is cut
    // off is mended at the next start.
    await Promise.race([stack.settled(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    stack.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function keys(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { tenant: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  // What the verbs take, and nothing opened or created.
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = readLocalConfig();
  const file = join(config.dataDir, 'library.db');
  const fresh = !existsSync(file);
  // Only `keys create` may start a library (its first tenant, before the first `serve`); the other verbs
  // on a folder with no database mean the wrong folder, and must not leave an empty database there.
  if (fresh && ['list', 'rotate', 'revoke'].includes(positionals[0] ?? '')) {
    throw new Error(
      `no library database in ${config.dataDir} (looked for library.db there).\n` +
        'Set LIBRARY_DATA_DIR to the folder `library serve` uses (its "listening on ... (data in FOLDER)" line names it), e.g.\n' +
        '  LIBRARY_DATA_DIR=/path/to/data npx library keys list\n' +
        'or start a new library there with `library keys create --tenant NAME` or `library serve`.',
    );
  }
  const db = openDatabase(file);
  if (fresh) console.error(`Started a new library database in ${config.dataDir} (LIBRARY_DATA_DIR).`);
  const service = new KeyService({ tenants: new SqliteTenantStore(db), clock: systemClock() });
  try {
    await runKeysCommand(
      positionals[0],
      values,
      service,
      { show: (k) => ({ tenant_id: k.tenant_id, api_key: k.api_key }) },
      USAGE,
    );
  } finally {
    db.close();
  }
}

async function push(args: string[]) {
  // `library push --help` documents every option (bin/push.ts).
  const config = readLocalConfig();
  process.exitCode = await runPushCommand(args, {
    version: VERSION,
    defaultUrl: `http://${config.host}:${config.port}`,
  });
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'keys') return keys(rest);
  if (command === 'push') return push(rest);
  if (command === 'mcp') {
    // `library mcp --help` documents every option (bin/mcp-command.ts); stdout is the protocol's alone.
    const config = readLocalConfig();
    process.exitCode = await runMcpCommand(rest, {
      version: VERSION,
      defaultUrl: `http://${config.host}:${config.port}`,
    });
    return;
  }
  if (command === 'reindex') {
    process.exitCode = await runReindexCommand(rest, readLocalConfig());
    return;
  }
  // Asked for: usage or the version on stdout, success. Anything else is a usage error.
  if (command === '--help' || command === '-h' || command === 'help') return console.log(USAGE);
  if (command === '--version' || command === '-v') return console.log(VERSION);
  console.error(USAGE);
  process.exit(command ? 2 : 0);
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
