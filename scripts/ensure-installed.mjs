#!/usr/bin/env node
// Runs before `npm start` and `npm test`: on a fresh clone it installs the
// pinned dependencies (npm ci), so each of the README's two commands works alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/.package-lock.json')) {
  console.error('First run: installing dependencies (npm ci)...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
