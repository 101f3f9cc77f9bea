/**
 * npm run bench:load — many callers at once on one local server, as a busy
 * service meets them: eight clients mixing single captures of about 2 KB,
 * searches and greps over HTTP for 60 s (issue 20). The server runs in its
 * own process (bench/lib/local-server.ts), its rate limit lifted.
 *
 * First the idle figures: searches and greps with nothing else running. Then
 * the load: each client loops over capture (half its calls), search and
 * grep. Every capture's receipt must be `created`; every search must find
 * something (the library holds only texts of the queries' vocabulary) and
 * every grep, for a seeded document's marker, must return lines holding it:
 * idle, a wrong answer stops the run; under load it is counted as an error
 * (with 5xx and failed requests). Once the load ends, how
 * fast its backlog is embedded, beside the embedder alone on the same server
 * (a batch of the same kind of texts, from receipt to ready).
 *
 * Goals: capture p99 <= 100 ms, >= 100 captures/s, 0 errors; search p99
 * within 2x idle on the same library (measured again once the load ends:
 * the load grows it from the seed's few documents to thousands); the load's backlog embedded at the embedder's own pace
 * (within 10%), read from the health endpoint's backlog for at most
 * --drain-seconds.
 *
 *   npm run bench:load [-- --seconds 60 --clients 8 --seed-docs 60 --drain-seconds 90]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { query, rng, textOfBytes } from './lib/english.js';
import { Http, killAllServers, newTally, startServer } from './lib/local-server.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';

const args = benchArgs('bench:load', {
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '8' },
    'seed-docs': { type: 'string', default: '60' },
    'drain-seconds': { type: 'string', default: '90' },
  },
});
const seconds = Number(args.seconds);
const clients = Number(args.clients);
const seedDocs = Number(args['seed-docs']);
const drainSeconds = Number(args['drain-seconds']);

const random = rng(20);
const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-load-'));
process.on('exit', killAllServers);
const server = await startServer({ dataDir, label: 'load' });
const tally = newTally();
const http = new Http(server.url, server.defaultKey!, tally);
const fmt = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;

/** How many passages these documents hold. */
async function passagesOf(ids: readonly string[]): Promise<number> {
  let total = 0;
  for (const id of ids) total += (await http.get<{ passages: number }>(`/v1/documents/${id}`)).body.passages ?? 0;
  return total;
}

/** Waits until none of `ids` is processing; returns the milliseconds it took. */
async function untilReady(ids: readonly string[]): Promise<number> {
  const t0 = performance.now();
  const waiting = new Set(ids);
  while (waiting.size) {
    for (const id of [...waiting]) {
      const doc = await http.get<{ status: string }>(`/v1/documents/${id}`);
      if (doc.status === 200 && doc.body.status !== 'processing') waiting.delete(id);
    }
    if (waiting.size) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return performance.now() - t0;
}

/** Searches and greps whose answer was not what the library holds (a figure from such an answer would time nothing). */
let wrongAnswers = 0;

/** A search by words of the seeded texts' vocabulary: it must find something (the library holds only such texts). */
async function searchAnswers(random: () => number): Promise<number> {
  const result = await http.get<{ count: number }>(`/v1/search?q=${encodeURIComponent(query(random))}&limit=10`);
  if (result.status !== 200 || !(result.body.count > 0)) wrongAnswers += 1;
  return result.ms;
}

/** A grep for a seeded document's marker: it must return lines, each holding the marker. */
async function grepAnswers(random: () => number): Promise<number> {
  const marker = `seed${Math.floor(random() * seedDocs)}`;
  const result = await http.get<{ results: Array<{ snippet: string }> }>(`/v1/grep?pattern=${marker}&limit=20`);
  const lines = result.status === 200 ? result.body.results : [];
  if (!lines.length || !lines.every((line) => line.snippet.includes(marker))) wrongAnswers += 1;
  return result.ms;
}

try {
  console.log(`bench:load on ${new Date().toISOString()}`);
  console.log(machineLine());

  // A library to search: seed documents in batches, ready before measuring.
  const seeded: string[] = [];
  for (let i = 0; i < seedDocs; i += 20) {
    const items = Array.from({ length: Math.min(20, seedDocs - i) }, (_, j) => ({
      text: textOfBytes(random, 2048, `seed${i + j}`),
    }));
    const { body } = await http.post<{ results: Array<{ id: string }> }>('/v1/capture/batch', { items });
    seeded.push(...body.results.map((r) => r.id));
  }
  await untilReady(seeded);

  // The embedder alone: a batch of texts like the load's, from receipt to ready.
  const aloneTexts = Array.from({ length: 40 }, () => ({ text: textOfBytes(random, 2048) }));
  const t0 = performance.now();
  const alone = await http.post<{ results: Array<{ id: string }> }>('/v1/capture/batch', {
    items: aloneTexts.slice(0, 20),
  });
  const alone2 = await http.post<{ results: Array<{ id: string }> }>('/v1/capture/batch', {
    items: aloneTexts.slice(20),
  });
  await untilReady([...alone.body.results, ...alone2.body.results].map((r) => r.id));
  const aloneSeconds = (performance.now() - t0) / 1000;
  const alonePassages = await passagesOf([...alone.body.results, ...alone2.body.results].map((r) => r.id));
  const embedderPassagesPerSecond = alonePassages / aloneSeconds;

  // Idle figures, every answer checked as under load.
  const idleSearch: number[] = [];
  const idleGrep: number[] = [];
  for (let i = 0; i < 100; i++) idleSearch.push(await searchAnswers(random));
  for (let i = 0; i < 50; i++) idleGrep.push(await grepAnswers(random));
  if (wrongAnswers)
    throw new Error(`bench:load: ${wrongAnswers} idle searches or greps answered nothing or the wrong lines`);

  // The load.
  const capture: number[] = [];
  const search: number[] = [];
  const grep: number[] = [];
  const captured: string[] = [];
  let wrong = 0;
  const until = performance.now() + seconds * 1000;
  const errorsBefore = tally.serverErrors + tally.failures;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const own = rng(100 + client);
      let n = 0;
      while (performance.now() < until) {
        const pick = own();
        if (pick < 0.5) {
          const result = await http.post<{ status: string; id: string }>('/v1/capture', {
            text: textOfBytes(own, 2048, `load${client}x${n++}`),
          });
          capture.push(result.ms);
          if (result.status < 300 && result.body.status === 'created') captured.push(result.body.id);
          else wrong += 1;
        } else if (pick < 0.8) {
          search.push(await searchAnswers(own));
        } else {
          grep.push(await grepAnswers(own));
        }
      }
    }),
  );
  const errors = tally.serverErrors + tally.failures - errorsBefore + wrong + wrongAnswers;
  // The backlog the load left: drained for at most --drain-seconds, its pace against the embedder alone.
  const backlog = async () => {
    const { body } = await http.get<{ ingest: { backlog_passages: number } | null }>('/v1/health');
    if (!body.ingest) throw new Error('bench:load: the health endpoint reported no backlog: its pace cannot be read');
    return body.ingest.backlog_passages;
  };
  const left = await backlog();
  const drainStart = performance.now();
  let now = left;
  while (now > 0 && performance.now() - drainStart < drainSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    now = await backlog();
  }
  const drainedSeconds = (performance.now() - drainStart) / 1000;
  const drainedPassages = left - now;
  // Idle again on the library the load grew (thousands of documents, not the seed's few): the load's
  // searches ran over it, so this is the idle figure they compare with. The backlog still embedding
  // runs in idle-class threads, which yield to these searches.
  const idleAfter: number[] = [];
  const wrongBefore = wrongAnswers;
  for (let i = 0; i < 100; i++) idleAfter.push(await searchAnswers(random));
  if (wrongAnswers > wrongBefore)
    throw new Error(`bench:load: ${wrongAnswers - wrongBefore} idle searches after the load answered nothing`);
  const capturesPerSecond = capture.length / seconds;
  const searchRatio = percentile(search, 99) / percentile(idleAfter, 99);
  const searchRatioSeed = percentile(search, 99) / percentile(idleSearch, 99);

  console.log(`idle: search ${fmt(idleSearch)}; grep ${fmt(idleGrep)} (a library of ${seedDocs} documents of 2 KB)`);
  console.log(
    `idle after the load: search ${fmt(idleAfter)} (the same library the load's searches ran over: ${seedDocs + aloneTexts.length + captured.length} documents)`,
  );
  console.log(
    `load, ${clients} clients for ${seconds} s: ${capture.length} captures (${capturesPerSecond.toFixed(1)}/s, ${fmt(capture)}), ${search.length} searches (${fmt(search)}), ${grep.length} greps (${fmt(grep)}), ${errors} errors (${wrongAnswers} of them wrong or empty answers)`,
  );
  const pace = drainedPassages / drainedSeconds;
  console.log(
    `findable by meaning: the load left ${left} passages to embed (${captured.length} documents captured); ${drainedPassages} were embedded in the next ${drainedSeconds.toFixed(0)} s (${pace.toFixed(1)} passages/s), ${now} still queued; the embedder alone: ${embedderPassagesPerSecond.toFixed(1)} passages/s`,
  );
  console.log('\n| goal | value | target | met |\n| --- | --- | --- | --- |');
  const row = (goal: string, value: string, target: string, met: boolean) =>
    console.log(`| ${goal} | ${value} | ${target} | ${met ? 'yes' : 'NO'} |`);
  row('capture p99', `${percentile(capture, 99).toFixed(1)} ms`, '<= 100 ms', percentile(capture, 99) <= 100);
  row('captures per second', capturesPerSecond.toFixed(1), '>= 100', capturesPerSecond >= 100);
  row('errors', String(errors), '0', errors === 0);
  row('search p99 under load / idle on the same library', `${searchRatio.toFixed(2)}x`, '<= 2x', searchRatio <= 2);
  row(
    'backlog embedded at the pace of the embedder alone',
    `${((100 * pace) / embedderPassagesPerSecond).toFixed(0)}%`,
    '>= 91%',
    pace >= embedderPassagesPerSecond / 1.1,
  );
  console.log(
    `\nsearch p99 under load against idle on the seed library (${seedDocs} documents, before the load): ${searchRatioSeed.toFixed(2)}x`,
  );
  if (tally.examples.length) console.log(`examples of errors: ${tally.examples.join(' | ')}`);
  console.log(`${machineLine()} (at the end)`);
} finally {
  await server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
