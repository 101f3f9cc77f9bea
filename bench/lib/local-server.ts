/**
 * The local server as a separate process, for benchmarks that measure it from
 * outside over HTTP (its memory, a crash, a restart):
 *
 *   startServer({ dataDir, label })  spawns `npx tsx bin/library.ts serve` in its own process
 *       group (detached) on a free port, rate limit lifted, and waits for GET /v1/health.
 *       Returns a LocalServer: url, pid (the group), defaultKey (printed on the data
 *       folder's first start; null on a restart), log file, kill(signal), exited.
 *   createTenant(dataDir, name)      `library keys create --tenant NAME` -> its API key (createTenantKey: and its id)
 *   killAllServers()                 SIGKILLs every group started here (for finally / exit handlers)
 *   serverRss(pgid)                  { server, group } resident bytes: the node process that runs
 *       bin/library.ts (the deepest one: npx and tsx's launcher are its parents) with its
 *       descendants, and the whole process group
 *   RssSampler                       samples serverRss every `ms`, keeps the peak
 *   Http                             fetch with a bearer key; counts every response >= 500 and
 *                                    every failed request in a shared HttpTally
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

const live = new Set<number>();

export interface LocalServer {
  url: string;
  port: number;
  pid: number;
  defaultKey: string | null;
  logFile: string;
  /** How the launcher (npx) ended: "exit code N" or "killed by SIGNAL". */
  exited: Promise<string>;
  /** Set once it has ended. */
  endedAs: string | null;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export function serverEnv(dataDir: string, port?: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LIBRARY_DATA_DIR: dataDir,
    ...(port ? { PORT: String(port) } : {}),
    HOST: '127.0.0.1',
    LIBRARY_RATE_LIMIT_RPS: '100000',
    LIBRARY_RATE_LIMIT_BURST: '100000',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startServer(options: {
  dataDir: string;
  label: string;
  timeoutMs?: number;
  env?: Record<string, string>;
}): Promise<LocalServer> {
  const port = await freePort();
  const logFile = join(options.dataDir, `server-${options.label}-${Date.now()}.log`);
  const log = createWriteStream(logFile);
  const child = spawn('npx', ['tsx', 'bin/library.ts', 'serve'], {
    cwd: REPO_ROOT,
    env: { ...serverEnv(options.dataDir, port), ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid!;
  live.add(pid);
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    log.write(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => log.write(chunk));
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => {
      live.delete(pid);
      done(signal ? `killed by ${signal}` : `exit code ${code}`);
    }),
  );
  let gone = false;
  let endedAs: string | null = null;
  void exited.then((how) => {
    gone = true;
    endedAs = how;
  });

  const url = `http://127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (gone) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
    const timeout = sleep(signal === 'SIGKILL' ? 5000 : 10000).then(() => 'timeout');
    if ((await Promise.race([exited, timeout])) === 'timeout' && signal !== 'SIGKILL') await kill('SIGKILL');
    // The group may outlive its leader (npx): make sure nothing of it is left.
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // nothing left
    }
  };

  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (gone)
      throw new Error(`server ${options.label} exited before answering /v1/health; log: ${logFile}\n${tail(logFile)}`);
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`server ${options.label} did not answer /v1/health in time; log: ${logFile}\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) {
        await response.arrayBuffer();
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.includes('Its API key'));
  const defaultKey = at >= 0 ? (lines[at + 1]?.trim() ?? null) : null;
  return {
    url,
    port,
    pid,
    defaultKey,
    logFile,
    exited,
    kill,
    get endedAs() {
      return endedAs;
    },
  };
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export async function createTenant(dataDir: string, name: string): Promise<string> {
  return (await createTenantKey(dataDir, name)).apiKey;
}

/** `library keys create --tenant NAME` -> the tenant's id (for a bench that fills its library in process) and API key. */
export async function createTenantKey(dataDir: string, name: string): Promise<{ tenantId: string; apiKey: string }> {
  const { stdout } = await promisify(execFile)('npx', ['tsx', 'bin/library.ts', 'keys', 'create', '--tenant', name], {
    cwd: REPO_ROOT,
    env: serverEnv(dataDir),
  });
  const last = stdout.trim().split('\n').pop() ?? '';
  const parsed = JSON.parse(last) as { tenant_id: string; api_key: string };
  return { tenantId: parsed.tenant_id, apiKey: parsed.api_key };
}

export function killAllServers(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  live.clear();
}

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  rss: number;
  cmdline: string;
}

function processes(pgid: number): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pgrp = Number(fields[2]);
      if (pgrp !== pgid) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      found.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp, rss: rssKb * 1024, cmdline });
    } catch {
      // exited while being read
    }
  }
  return found;
}

/** Resident bytes of the server's node process (and its descendants) and of its whole process group. */
export function serverRss(pgid: number): { server: number; group: number; serverPid: number | null } {
  const procs = processes(pgid);
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const depth = (p: Proc): number => (byPid.has(p.ppid) ? 1 + depth(byPid.get(p.ppid)!) : 0);
  const runners = procs.filter((p) => p.cmdline.includes('bin/library.ts') && !/\bnpm\b|npx/.test(p.cmdline));
  const server = runners.sort((a, b) => depth(b) - depth(a))[0];
  let serverBytes = 0;
  if (server) {
    const inTree = (p: Proc): boolean => p.pid === server.pid || (byPid.has(p.ppid) && inTree(byPid.get(p.ppid)!));
    serverBytes = procs.filter(inTree).reduce((sum, p) => sum + p.rss, 0);
  }
  return { server: serverBytes, group: procs.reduce((sum, p) => sum + p.rss, 0), serverPid: server?.pid ?? null };
}

export class RssSampler {
  peakServer = 0;
  peakGroup = 0;
  samples = 0;
  serverPid: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pgid: number,
    private readonly ms = 100,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.ms);
    return this;
  }

  sample(): void {
    const { server, group, serverPid } = serverRss(this.pgid);
    this.samples += 1;
    this.serverPid ??= serverPid;
    this.peakServer = Math.max(this.peakServer, server);
    this.peakGroup = Math.max(this.peakGroup, group);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export interface HttpTally {
  requests: number;
  serverErrors: number;
  failures: number;
  /** The first few 5xx / failures, to show. */
  examples: string[];
}

export const newTally = (): HttpTally => ({ requests: 0, serverErrors: 0, failures: 0, examples: [] });

export interface HttpResult<T> {
  status: number;
  body: T;
  ms: number;
}

export class Http {
  constructor(
    readonly url: string,
    readonly key: string,
    private readonly tally: HttpTally,
  ) {}

  async request<T = any>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    timeoutMs = 120_000,
  ): Promise<HttpResult<T>> {
    const t0 = performance.now();
    this.tally.requests += 1;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      this.tally.failures += 1;
      if (this.tally.examples.length < 5)
        this.tally.examples.push(`${method} ${path.slice(0, 60)}: ${(error as Error).message}`);
      throw error;
    }
    const ms = performance.now() - t0;
    if (response.status >= 500) {
      this.tally.serverErrors += 1;
      if (this.tally.examples.length < 5)
        this.tally.examples.push(`${method} ${path.slice(0, 60)}: HTTP ${response.status} ${text.slice(0, 200)}`);
    }
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, ms };
  }

  get<T = any>(path: string): Promise<HttpResult<T>> {
    return this.request<T>('GET', path);
  }

  post<T = any>(path: string, body: unknown): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, body);
  }
}
