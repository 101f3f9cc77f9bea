import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, requiredNodeMajor } from '../../bin/node-version.js';

/**
 * The Node.js the project runs on (issue 21): package.json's engines, the check bin/library.ts
 * makes first, the pinned Node.js of scripts/current-node.mjs, and the launcher every npm script
 * runs through.
 */
const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe('the Node.js version', () => {
  it('needs Node.js 22 or newer, and says what to run on when it is older', () => {
    expect(pkg.engines.node).toBe('>=22');
    expect(requiredNodeMajor('>=22')).toBe(22);
    expect(() => requiredNodeMajor('^22')).toThrow(/expected ">=MAJOR"/);
    expect(nodeVersionProblem('v22.0.0', '>=22')).toBeUndefined();
    expect(nodeVersionProblem('v24.21.0', '>=22')).toBeUndefined();
    const problem = nodeVersionProblem('v20.20.2', '>=22');
    expect(problem).toMatch(/^Library needs Node\.js 22 or newer; this is Node\.js v20\.20\.2/);
    expect(problem).toContain('npm start');
    expect(problem).toContain('.tools/node/bin');
    expect(problem).toContain('https://nodejs.org');
    expect(nodeVersionProblem(process.version, pkg.engines.node)).toBeUndefined();
  });

  it('pins a Node.js that engines allows', () => {
    const pinned = /version: '(\d+)\.\d+\.\d+'/.exec(
      readFileSync(join(root, 'scripts', 'current-node.mjs'), 'utf8'),
    )?.[1];
    expect(Number(pinned)).toBeGreaterThanOrEqual(requiredNodeMajor(pkg.engines.node));
  });

  it('runs every npm script but the install hooks through the launcher', () => {
    for (const [name, script] of Object.entries(pkg.scripts)) {
      if (name === 'prestart' || name === 'pretest') expect(script).toBe('node scripts/ensure-installed.mjs');
      else expect(script, name).toMatch(/^node scripts\/with-current-node\.mjs /);
    }
  });

  it('the launcher runs a command line under a Node.js engines allows, with its arguments and its exit status', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['scripts/with-current-node.mjs', ...args], { cwd: root, encoding: 'utf8' });
    const version = run('node -p process.versions.node');
    expect(version.status).toBe(0);
    expect(Number(version.stdout.split('.')[0])).toBeGreaterThanOrEqual(22);
    // A program and its arguments, as given; a command line in the shell, with the arguments after it quoted onto it.
    expect(run('node', '-p', "process.argv.slice(1).join('|')", '--', "it's", 'a b', '$HOME').stdout.trim()).toBe(
      "it's|a b|$HOME",
    );
    expect(run('node -p "process.argv.slice(1).join(\'|\')" --', "it's", 'a b', '$HOME').stdout.trim()).toBe(
      "it's|a b|$HOME",
    );
    expect(run('exit 3').status).toBe(3);
    expect(run().status).toBe(2);
    // Run alone on a new enough node, current-node.mjs installs nothing and prints no folder.
    const current = spawnSync(process.execPath, ['scripts/current-node.mjs'], { cwd: root, encoding: 'utf8' });
    expect(current.status).toBe(0);
    expect(current.stdout).toBe('');
  });
});
