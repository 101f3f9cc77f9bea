import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHandler as authorizer } from '../endpoints/authorizer/handler.js';
import { createHandler as bucketDelete } from '../endpoints/bucket-delete/handler.js';
import { createHandler as bucketGet } from '../endpoints/bucket-get/handler.js';
import { createHandler as bucketPut } from '../endpoints/bucket-put/handler.js';
import { createHandler as bucketTrustPolicy } from '../endpoints/bucket-trust-policy/handler.js';
import { createHandler as capture } from '../endpoints/capture/handler.js';
import { createHandler as captureBatch } from '../endpoints/capture-batch/handler.js';
import { createHandler as chat } from '../endpoints/chat/handler.js';
import { readConsoleBuild } from '../endpoints/console/build.js';
import { createHandler as consolePage } from '../endpoints/console/handler.js';
import { createHandler as consoleAsset } from '../endpoints/console-asset/handler.js';
import { DOCS_ASSET_PACKAGE, readDocsAssets } from '../endpoints/docs/assets.js';
import { createHandler as docs } from '../endpoints/docs/handler.js';
import { createHandler as documentContent } from '../endpoints/document-content/handler.js';
import { createHandler as documentDelete } from '../endpoints/document-delete/handler.js';
import { createHandler as documentFile } from '../endpoints/document-file/handler.js';
import { createHandler as documentGet } from '../endpoints/document-get/handler.js';
import { createHandler as documentUpdate } from '../endpoints/document-update/handler.js';
import { createHandler as documentsList } from '../endpoints/documents-list/handler.js';
import { createHandler as endUserDelete } from '../endpoints/end-user-delete/handler.js';
import { createHandler as endUsersList } from '../endpoints/end-users-list/handler.js';
import { createHandler as grep } from '../endpoints/grep/handler.js';
import { createHandler as health } from '../endpoints/health/handler.js';
import { createHandler as mcp } from '../endpoints/mcp/handler.js';
import { createHandler as openapi } from '../endpoints/openapi/handler.js';
import type { PageName, RouteName } from '../endpoints/routes.js';
import { createHandler as search } from '../endpoints/search/handler.js';
import { createHandler as usage } from '../endpoints/usage/handler.js';
import type { ApiHandler } from '../http/endpoint.js';
import type { Services } from '../wiring/services.js';

/** Every endpoint's handler, made by the same factories the Lambda entries call. */
export function createLocalHandlers(
  services: Services,
  info: {
    version: string;
    backlog?: () => { documents: number; passages: number };
    dependencies?: Record<string, () => Promise<void>>;
  },
) {
  const handlers: Record<RouteName | PageName, ApiHandler> = {
    // A key sent to health is checked like the authorizer checks it (the route has none): it adds the details.
    health: health({
      embedder: services.embedder,
      backend: 'local',
      version: info.version,
      backlog: info.backlog,
      dependencies: info.dependencies,
      keys: services.keys,
    }),
    openapi: openapi({ version: info.version }),
    capture: capture(services),
    'capture-batch': captureBatch(services),
    search: search(services),
    grep: grep(services),
    'documents-list': documentsList(services),
    'document-get': documentGet(services),
    'document-update': documentUpdate(services),
    'document-delete': documentDelete(services),
    'document-content': documentContent(services),
    'document-file': documentFile(services),
    'end-users-list': endUsersList(services),
    'end-user-delete': endUserDelete(services),
    chat: chat(services),
    // The MCP tools call the same services in process (lambdas/mcp).
    mcp: mcp({ ...services, version: info.version }),
    usage: usage(services),
    'bucket-trust-policy': bucketTrustPolicy(services),
    'bucket-put': bucketPut(services),
    'bucket-get': bucketGet(services),
    'bucket-delete': bucketDelete(services),
    // The renderer is read from node_modules (on AWS, from the copy beside the bundle).
    docs: docs({
      version: info.version,
      loadAssets: () =>
        readDocsAssets(dirname(createRequire(import.meta.url).resolve(`${DOCS_ASSET_PACKAGE}/package.json`))),
    }),
    // The web console: built from console/ (scripts/build-console.mjs), read from console/dist.
    console: consolePage({ version: info.version, loadBuild: loadConsoleBuild }),
    'console-asset': consoleAsset({ loadBuild: loadConsoleBuild }),
  };
  return { handlers, authorizer: authorizer(services) };
}

/** The console as scripts/build-console.mjs built it (before `npm start` and `npm test`), read at its first request. */
const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));
function loadConsoleBuild() {
  if (!existsSync(join(CONSOLE_DIST, 'manifest.json'))) {
    throw new Error('the console is not built: run `node scripts/build-console.mjs` (npm start and npm test do)');
  }
  return readConsoleBuild(CONSOLE_DIST);
}
