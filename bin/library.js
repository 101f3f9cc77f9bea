#!/usr/bin/env node
// The `library` command (npx library ...): runs bin/library.ts with tsx, so no build step is needed.
// Under a node older than the project needs, it runs on the pinned Node.js of .tools/node when
// `npm start` or `npm test` has installed it there (scripts/current-node.mjs); otherwise
// bin/node-version.ts says which version to get.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentNode, nodeEnv } from '../scripts/current-node.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const current = currentNode({ install: false });
const node = current?.node ?? process.execPath;
const env = current ? nodeEnv(current) : process.env;
const result = spawnSync(node, [tsx, join(here, 'library.ts'), ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
