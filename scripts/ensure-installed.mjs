#!/usr/bin/env node
// Runs before `npm start` and `npm test`, so each of the README's two commands works alone on a
// fresh clone: it makes sure of a Node.js the project runs on (the machine's when it is new enough,
// else the pinned one it installs into .tools/node: scripts/current-node.mjs), installs the pinned
// dependencies under that Node.js on first use (npm ci), and installs them again when node_modules,
// installed under another Node.js, does not load under it. The script itself then runs under that
// Node.js through scripts/with-current-node.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { currentNode, ensureNativeModules, nodeEnv } from './current-node.mjs';

let current;
try {
  current = currentNode();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const env = nodeEnv(current);

if (!existsSync('node_modules/.package-lock.json')) {
  console.error(`First run: installing dependencies (npm ci) for Node.js ${current.version}...`);
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
try {
  ensureNativeModules(current);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// The typed client (client/) ships built: `npm install <repo>/client` links the folder, which
// npm does not build (the build runs on pack), so build it here when dist/ is missing or older than
// any file of client/src (a pull that changed the client, or regenerated api-types.ts). Its last
// step writes dist/cjs/package.json: a dist/ from before the CommonJS build is built again.
const clientBuilt = 'client/dist/cjs/package.json';
const newestSource = () =>
  Math.max(
    ...readdirSync('client/src', { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
if (!existsSync(clientBuilt) || statSync(clientBuilt).mtimeMs < newestSource()) {
  console.error('Building the TypeScript client (client/dist)...');
  const built = spawnSync('npm', ['run', 'build', '--prefix', 'client'], { stdio: 'inherit', env });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// The web console (console/src) is built into console/dist, which the server serves at /console:
// each time, so the page is always the source's (esbuild takes about a second).
{
  const built = spawnSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit', env });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// The API reference page's test drives a real headless browser: Debian's chromium (playwright-core
// downloads no browser). Installed here when missing and possible (root, or sudo without a password,
// with apt-get); otherwise the test fails naming what to install (CHROMIUM_PATH points at another).
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
if (
  process.env.npm_lifecycle_event === 'pretest' &&
  !process.env.CHROMIUM_PATH &&
  !CHROMIUM.some((path) => existsSync(path)) &&
  existsSync('/usr/bin/apt-get')
) {
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (root || sudo) {
    console.error('Installing chromium for the browser test (apt-get install chromium)...');
    const apt = (args) =>
      spawnSync(root ? 'apt-get' : 'sudo', root ? args : ['-n', 'apt-get', ...args], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (
      apt(['update', '-qq']).status !== 0 ||
      apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium']).status !== 0
    ) {
      console.error('Could not install chromium; the browser test will fail (install it, or set CHROMIUM_PATH).');
    }
  } else {
    console.error(
      'chromium is missing and cannot be installed here (not root, no sudo): the browser test will fail; apt-get install chromium, or set CHROMIUM_PATH.',
    );
  }
}
