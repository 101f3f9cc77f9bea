/**
 * Imported first by bin/library.ts: on a Node.js older than package.json's engines (">=22") the
 * command stops here, before any dependency loads, naming the version it needs and how to get it
 * (better-sqlite3, built for another Node.js, would fail less clearly, and the AWS SDK warns that
 * its releases from January 2027 need Node.js 22).
 */
import { readFileSync } from 'node:fs';

/** The lowest Node.js major an engines range of the form ">=22" allows. */
export function requiredNodeMajor(engines: string): number {
  const major = /^>=\s*(\d+)/.exec(engines)?.[1];
  if (!major) throw new Error(`package.json's engines.node is ${JSON.stringify(engines)}; expected ">=MAJOR"`);
  return Number(major);
}

/** What to tell the operator when the running Node.js (process.version) is older than engines allows; undefined when it is not. */
export function nodeVersionProblem(running: string, engines: string): string | undefined {
  const required = requiredNodeMajor(engines);
  if (Number(running.replace(/^v/, '').split('.')[0]) >= required) return undefined;
  return [
    `Library needs Node.js ${required} or newer; this is Node.js ${running} (${process.execPath}).`,
    `In the repository, \`npm start\` and \`npm test\` get one themselves: on an older node they install the pinned`,
    `Node.js from the npm registry into .tools/node and run under it. To run a command yourself with that one:`,
    `  export PATH="$PWD/.tools/node/bin:$PATH"`,
    `Or install Node.js ${required} or newer: https://nodejs.org/en/download (or \`nvm install ${required}\`).`,
  ].join('\n');
}

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const problem = nodeVersionProblem(process.version, engines.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
