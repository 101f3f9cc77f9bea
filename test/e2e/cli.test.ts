import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The operator interface as a user runs it: `npx library keys ...` and `npm start`. */
const root = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'library-cli-'));
const env = { ...process.env, LIBRARY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT' };
let serverProcess: ChildProcess | undefined;

afterAll(async () => {
  // npm start runs npm, a shell, tsx and node: stop the whole process group,
  // or the server outlives the test run.
  const server = serverProcess;
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function library(...args: string[]) {
  const result = spawnSync('npx', ['library', ...args], { cwd: root, env, encoding: 'utf8' });
  const lines = result.stdout.trim().split('\n');
  return { status: result.status, lines, last: lines[lines.length - 1]!, stderr: result.stderr };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(port: number): Promise<{ firstKey: string }> {
  serverProcess = spawn('npm', ['start'], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    serverProcess!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve({ firstKey: /lib_[0-9A-Za-z]{40}/.exec(output)?.[0] ?? '' });
      }
    });
    serverProcess!.on('exit', (code) => reject(new Error(`server exited ${code}:\n${output}`)));
  });
}

describe('the library command and npm start', () => {
  it('serves, creates the first tenant once, and manages keys while running', async () => {
    const port = await freePort();
    const { firstKey } = await startServer(port);
    expect(firstKey).toMatch(/^lib_/);
    const base = `http://127.0.0.1:${port}`;
    const call = (path: string, apiKey: string, body?: unknown) =>
      fetch(base + path, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });

    expect((await call('/v1/documents', firstKey)).status).toBe(200);

    const created = library('keys', 'create', '--tenant', 'cli-tenant');
    expect(created.status).toBe(0);
    const issued = JSON.parse(created.last) as { tenant_id: string; api_key: string };
    expect(Object.keys(issued).sort()).toEqual(['api_key', 'tenant_id']);
    expect((await call('/v1/capture', issued.api_key, { text: 'kept across rotation' })).status).toBe(201);

    const listed = library('keys', 'list');
    expect(listed.status).toBe(0);
    expect(listed.lines.join('\n')).not.toContain(issued.api_key);
    expect(listed.lines.map((l) => JSON.parse(l).tenant)).toEqual(expect.arrayContaining(['default', 'cli-tenant']));

    const rotated = JSON.parse(library('keys', 'rotate', '--tenant', 'cli-tenant').last) as {
      tenant_id: string;
      api_key: string;
    };
    expect(rotated.tenant_id).toBe(issued.tenant_id);
    expect((await call('/v1/documents', issued.api_key)).status).toBe(401);
    const docs = (await (await call('/v1/documents', rotated.api_key)).json()) as { count: number };
    expect(docs.count).toBe(1); // same tenant, same data

    expect(library('keys', 'revoke', '--tenant', 'cli-tenant').status).toBe(0);
    expect((await call('/v1/documents', rotated.api_key)).status).toBe(401);
    // The tenant of the first start is untouched.
    expect((await call('/v1/documents', firstKey)).status).toBe(200);
  });

  it('reports a folder with no database instead of creating one; keys create starts a library on a new folder', () => {
    const parent = mkdtempSync(join(tmpdir(), 'library-cli-missing-'));
    try {
      const wrong = join(parent, 'not-the-data-folder');
      const inWrong = (...args: string[]) =>
        spawnSync('npx', ['library', 'keys', ...args], {
          cwd: root,
          env: { ...env, LIBRARY_DATA_DIR: wrong },
          encoding: 'utf8',
        });
      for (const args of [['list'], ['rotate', '--tenant', 't'], ['revoke', '--tenant', 't']]) {
        const result = inWrong(...args);
        expect(result.status, args.join(' ')).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain(`no library database in ${wrong}`);
        expect(result.stderr).toContain('LIBRARY_DATA_DIR');
        expect(existsSync(wrong), 'nothing created').toBe(false);
      }
      // create is how an operator may start a library before its first serve: it says so on stderr.
      const created = inWrong('create', '--tenant', 'first');
      expect(created.status).toBe(0);
      expect(created.stderr).toContain(`Started a new library database in ${wrong}`);
      expect(JSON.parse(created.stdout.trim()).api_key).toMatch(/^lib_/);
      const listed = inWrong('list');
      expect(listed.status).toBe(0);
      expect(listed.stderr).not.toContain('Started a new library');
      expect(JSON.parse(listed.stdout.trim()).tenant).toBe('first');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('fails clearly on a bad command', () => {
    const bad = library('keys', 'rotate');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--tenant/);
  });

  it('prints its usage and its version when asked (exit 0), and its usage for an unknown command (exit 2)', () => {
    const help = library('--help');
    expect(help.status).toBe(0);
    expect(help.lines.join('\n')).toMatch(/^usage:\n\s+library serve/);
    const version = library('--version');
    expect(version.status).toBe(0);
    expect(version.last).toMatch(/^\d+\.\d+\.\d+$/);
    // A verb's help is the usage too, and opens nothing.
    const keysHelp = library('keys', '--help');
    expect(keysHelp.status).toBe(0);
    expect(keysHelp.lines.join('\n')).toMatch(/library keys create --tenant NAME/);
    const unknown = library('frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^usage:/);
  });

  it('prints what serve reads when asked for its help, and starts no server (nor a library) for that or an option it does not take', () => {
    const folder = mkdtempSync(join(tmpdir(), 'library-serve-help-'));
    const run = (...args: string[]) =>
      spawnSync('npx', ['library', 'serve', ...args], {
        cwd: root,
        env: { ...env, LIBRARY_DATA_DIR: join(folder, 'data'), PORT: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: library serve\n/);
    expect(help.stdout).toMatch(/LIBRARY_DATA_DIR/);
    const bad = run('--port', '9000');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--port/);
    // Neither created the data folder.
    expect(existsSync(join(folder, 'data'))).toBe(false);
    rmSync(folder, { recursive: true, force: true });
  });
});
