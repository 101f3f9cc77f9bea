#!/usr/bin/env node
// The npm scripts run through this: `node scripts/with-current-node.mjs COMMAND [ARGS...]` runs
// the command under the Node.js this project needs (scripts/current-node.mjs). npm runs a script
// with the `node` first in PATH; when that one is older than package.json's engines, the command
// gets the pinned Node.js of .tools/node first in PATH (installed here if missing), so tsx, tsc,
// eslint, vitest and npm run on it. When the machine's node is new enough the command runs as it
// is. Either way a node_modules that does not load under that Node.js is installed again first.
import { spawn } from 'node:child_process';
import { currentNode, ensureNativeModules, nodeEnv } from './current-node.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-current-node.mjs COMMAND [ARGS...]');
  process.exit(2);
}

let env;
try {
  const current = currentNode();
  ensureNativeModules(current);
  env = nodeEnv(current);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// A program and its arguments (tsx bin/library.ts serve) runs without a shell, so a signal passed
// on reaches it; a whole command line in one argument ("tsc --noEmit && vitest run") runs in the
// shell, as npm runs a script, with any arguments after it (npm test -- ARGS) quoted onto its end.
const quote = (arg) => (/^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);
const child = /\s/.test(command)
  ? spawn([command, ...args.map(quote)].join(' '), { stdio: 'inherit', env, shell: true })
  : spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });

// Ctrl-C reaches the whole process group, the command included; a signal sent to this process
// alone (npm passes SIGINT and SIGTERM on to its script) is passed on once, then this waits for
// the command to finish.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const passedOn = new Set();
for (const signal of SIGNALS) {
  process.on(signal, () => {
    if (passedOn.has(signal)) return;
    passedOn.add(signal);
    child.kill(signal);
  });
}
child.on('error', (error) => {
  console.error(`${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) {
    for (const name of SIGNALS) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
