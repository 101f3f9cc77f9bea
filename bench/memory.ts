/**
 * npm run bench:memory: search and chat on conversational memories (LoCoMo),
 * through the HTTP API of the real local server.
 *
 * Each conversation is one end user's library (end_user_id = the
 * conversation's id); each turn is one memory captured through
 * POST /v1/capture/batch (20 a call) as `[8 May 2023] Caroline: <text>`, with
 * source_ref = its dia_id. Every question of categories 1-4 is searched in its
 * library with limit=10 over HTTP; a hit is a result whose source_ref is one of
 * the question's evidence turns. Printed per category and overall: hit@1,
 * hit@5, hit@10 and recall@10 for
 *   - keyword leg alone and meaning leg alone: computed in this process over the
 *     same data folder once the server has stopped, through the index port the
 *     search use case calls (SqliteSearchIndex.keywordSearch / vectorSearch, each
 *     collapsed to items); the public API exposes no single-leg switch;
 *   - hybrid: GET /v1/search, the API itself;
 *   - MiniSearch 7 (defaults) over the same texts, as a peer.
 * Then POST /v1/chat on an even spread of the questions (default 200): the
 * share whose cited sources include an evidence turn, the share answered with
 * sources, p50 latency. Search p50 is over the HTTP calls.
 *
 * All of it runs twice: with the offline embedder, and with a second
 * embedder on another cosine scale (the same vectors moved up: unrelated
 * texts score about 0.55 instead of 0.1), served to the server as an
 * OpenAI-compatible embedder, so the chat's gate is seen calibrated to each
 * (issue 18: within 3 points of each other).
 *
 * Data: $LOCOMO_DIR (see bench/lib/locomo.ts). Options for quick loops:
 *   --embedder use|shifted|both            which embedders (default both)
 *   --conversations conv-26,conv-30 | N   only these conversations (or the first N)
 *   --questions N                          only the first N questions of each conversation
 *   --chat N                               chat questions (0: no chat)
 *   --data-dir DIR                         keep the server's data folder there and reuse it on the
 *                                          next run (captures skipped); default: a temporary folder
 *   --verbose                              print the hybrid's misses at 10
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { LibraryRef, PassageHit } from '../lambdas/core/model.js';
import { DEFAULT_SEARCH } from '../lambdas/core/search.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { benchArgs } from './lib/args.js';
import { Http, killAllServers, newTally, startServer } from './lib/local-server.js';
import { CATEGORY_NAMES, type Conversation, loadLocomo, locomoDir, type MemoryQuestion } from './lib/locomo.js';
import { machineLine } from './lib/machine.js';
import { mean, percentile } from './lib/metrics.js';
import { SHIFTED_MODEL, startShiftedEmbeddingsServer } from './lib/shifted-embeddings-server.js';

const args = benchArgs('bench:memory', {
  options: {
    conversations: { type: 'string' },
    questions: { type: 'string' },
    chat: { type: 'string', default: '200' },
    'data-dir': { type: 'string' },
    embedder: { type: 'string', default: 'both' },
    verbose: { type: 'boolean', default: false },
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.error(`[bench:memory] ${line}`);

function selectConversations(all: Conversation[]): Conversation[] {
  const wanted = args.conversations;
  let chosen = all;
  if (wanted && /^\d+$/.test(wanted)) chosen = all.slice(0, Number(wanted));
  else if (wanted) chosen = all.filter((c) => wanted.split(',').includes(c.id));
  if (!chosen.length) throw new Error(`no conversation matches --conversations ${wanted}`);
  const perConversation = args.questions ? Number(args.questions) : Infinity;
  return chosen.map((c) => ({ ...c, questions: c.questions.slice(0, perConversation) }));
}

const conversations = selectConversations(loadLocomo());
const questions = conversations.flatMap((c) => c.questions.map((q) => ({ ...q, conversation: c.id })));

process.on('exit', killAllServers);

type Ranked = string[]; // source_refs (dia_ids), best first
interface Metrics {
  hit1: number;
  hit5: number;
  hit10: number;
  recall10: number;
}

function score(ranked: Ranked, evidence: readonly string[]): Metrics {
  const at = (k: number) => (ranked.slice(0, k).some((r) => evidence.includes(r)) ? 1 : 0);
  const top10 = new Set(ranked.slice(0, 10));
  return {
    hit1: at(1),
    hit5: at(5),
    hit10: at(10),
    recall10: evidence.filter((e) => top10.has(e)).length / evidence.length,
  };
}

/** The offline model, or a second embedder on another cosine scale served to the server as an OpenAI-compatible one (bench/lib/shifted-embeddings-server.ts). */
type EmbedderKind = 'use' | 'shifted';
const kinds: EmbedderKind[] =
  args.embedder === 'use' ? ['use'] : args.embedder === 'shifted' ? ['shifted'] : ['use', 'shifted'];
/** Each embedder's chat figure, to compare them once both ran. */
const chatShares = new Map<EmbedderKind, number>();
for (const kind of kinds) await measure(kind);
if (chatShares.has('use') && chatShares.has('shifted')) {
  const gap = Math.abs(chatShares.get('use')! - chatShares.get('shifted')!) * 100;
  console.log('\n| goal | value | target | met |\n| --- | --- | --- | --- |');
  console.log(
    `| chat with the second embedder within 3 points of the offline one (the gate calibrated per embedder) | ${gap.toFixed(1)} points | <= 3 | ${gap <= 3 ? 'yes' : 'NO'} |`,
  );
}

async function measure(kind: EmbedderKind) {
  const shifted = kind === 'shifted' ? await startShiftedEmbeddingsServer() : null;
  const embed = shifted ? { url: shifted.url, model: shifted.model } : undefined;
  try {
    await measureWith(kind, embed);
  } finally {
    await shifted?.close();
  }
}

async function measureWith(kind: EmbedderKind, embed: { url: string; model: string } | undefined) {
  // The server's data folder: temporary, or kept for the next run.
  /** The embedding backlog may not stand still longer than this. */
  const STALLED_MS = 5 * 60_000;
  const keep = args['data-dir'] ? join(args['data-dir'], kind) : undefined;
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'library-bench-memory-'));
  mkdirSync(dataDir, { recursive: true });
  const stateFile = join(dataDir, 'bench-memory.json');
  interface State {
    key: string;
    tenantId: string;
    captured: Record<string, Record<string, string>>; // conversation -> file id -> dia_id
  }
  const state: State | null = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : null;

  const server = await startServer({
    dataDir,
    label: `memory-${kind}`,
    env: embed ? { LIBRARY_EMBED_URL: embed.url, LIBRARY_EMBED_MODEL: embed.model } : {},
  });
  try {
    const tally = newTally();
    const key = state?.key ?? server.defaultKey;
    if (!key)
      throw new Error(
        `the data folder ${dataDir} was started before without this benchmark's state file: use a fresh --data-dir`,
      );
    const http = new Http(server.url, key, tally);
    const tenantId = state?.tenantId ?? (await http.get<{ tenant_id: string }>('/v1/usage')).body.tenant_id;
    const captured: State['captured'] = state?.captured ?? {};

    // 1. Capture each conversation's turns into its end user's library.
    const t0 = performance.now();
    let capturedNow = 0;
    for (const c of conversations) {
      if (captured[c.id]) continue;
      const files: Record<string, string> = {};
      for (let i = 0; i < c.turns.length; i += 20) {
        const batch = c.turns.slice(i, i + 20);
        const response = await http.post<{ results: Array<{ ok: boolean; id: string | null; detail: string }> }>(
          '/v1/capture/batch',
          {
            end_user_id: c.id,
            items: batch.map((t) => ({ text: t.text, source_ref: t.diaId })),
          },
        );
        if (response.status !== 200)
          throw new Error(`capture/batch: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        response.body.results.forEach((r, j) => {
          if (!r.ok || !r.id) throw new Error(`capture of ${batch[j]!.diaId} refused: ${r.detail}`);
          files[r.id] = batch[j]!.diaId;
        });
        capturedNow += batch.length;
      }
      captured[c.id] = files;
    }
    writeFileSync(stateFile, JSON.stringify({ key, tenantId, captured } satisfies State));
    // A backlog that stops moving (an embedder that died) ends the run rather than hanging it.
    for (let lastLog = 0, lastMove = performance.now(), left = Infinity; ; await sleep(500)) {
      const { body } = await http.get<{ ingest: { backlog_documents: number; backlog_passages: number } | null }>(
        '/v1/health',
      );
      if (!body.ingest || body.ingest.backlog_documents === 0) break;
      if (body.ingest.backlog_passages < left) [left, lastMove] = [body.ingest.backlog_passages, performance.now()];
      if (performance.now() - lastMove > STALLED_MS)
        throw new Error(
          `the embedding backlog has not moved for ${STALLED_MS / 60_000} minutes (${left} passages left)`,
        );
      if (performance.now() - lastLog > 15_000) {
        log(
          `waiting for the meaning of ${body.ingest.backlog_documents} memories (${body.ingest.backlog_passages} passages)`,
        );
        lastLog = performance.now();
      }
    }
    const turns = conversations.reduce((n, c) => n + c.turns.length, 0);
    log(
      `${turns} memories in ${conversations.length} libraries (${capturedNow} captured now) ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    // 2. Hybrid search over HTTP.
    const hybrid: Ranked[] = [];
    const searchMs: number[] = [];
    await http.get(`/v1/search?q=warm&limit=10&end_user_id=${conversations[0]!.id}`); // model loaded, JIT warm
    for (const q of questions) {
      const path = `/v1/search?q=${encodeURIComponent(q.question)}&limit=10&end_user_id=${encodeURIComponent(q.conversation)}`;
      const response = await http.get<{ results: Array<{ source_ref: string | null }> }>(path);
      if (response.status !== 200)
        throw new Error(`search: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
      searchMs.push(response.ms);
      hybrid.push(response.body.results.map((r) => r.source_ref ?? ''));
    }

    // 3. Chat on an even spread of the questions (after the searches: chats become memories).
    const chatCount = Math.min(Number(args.chat), questions.length);
    const chatMs: number[] = [];
    let cited = 0;
    let answered = 0;
    for (let i = 0; i < chatCount; i++) {
      const q = questions[Math.floor((i * questions.length) / chatCount)]!;
      const response = await http.post<{ sources: Array<{ file_id?: string }> }>('/v1/chat', {
        question: q.question,
        end_user_id: q.conversation,
      });
      if (response.status !== 200)
        throw new Error(`chat: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
      chatMs.push(response.ms);
      const refs = response.body.sources.map((s) => captured[q.conversation]![s.file_id ?? ''] ?? '');
      if (refs.length) answered += 1;
      if (refs.some((r) => q.evidence.includes(r))) cited += 1;
      else if (args.verbose)
        log(
          `CHAT MISS [${q.category}] ${q.question} -> ${refs.join(' ') || 'refused'}; evidence ${q.evidence.join(' ')}`,
        );
    }
    if (tally.serverErrors || tally.failures) throw new Error(`HTTP failures: ${tally.examples.join('; ')}`);
    await server.kill();

    // 4. The two legs alone, in process, over the same data folder.
    const stack = await openLocalStack({ dataDir, embed });
    const keyword: Ranked[] = [];
    const meaning: Ranked[] = [];
    const collapse = (hits: readonly PassageHit[]) => [...new Set(hits.map((h) => h.sourceRef ?? ''))];
    try {
      const limit = DEFAULT_SEARCH.candidatesPerLeg;
      for (const q of questions) {
        const ref: LibraryRef = { tenantId, endUserId: q.conversation };
        const {
          vectors: [vector],
        } = await stack.ports.embedder.embed([q.question], 'query');
        keyword.push(
          collapse(await stack.ports.index.keywordSearch(ref, { text: q.question, limit, kinds: ['file_excerpt'] })),
        );
        meaning.push(
          collapse(await stack.ports.index.vectorSearch(ref, { vector: vector!, limit, kinds: ['file_excerpt'] })),
        );
      }
    } finally {
      stack.close();
    }

    // 5. The peer: MiniSearch over the same texts, one index per library.
    const peer: Ranked[] = [];
    for (const c of conversations) {
      const mini = new MiniSearch<{ id: string; text: string }>({ fields: ['text'], idField: 'id' });
      mini.addAll(c.turns.map((t) => ({ id: t.diaId, text: t.text })));
      for (const q of c.questions) peer.push(mini.search(q.question).map((r) => String(r.id)));
    }

    report(kind, { keyword, meaning, hybrid, peer }, { searchMs, chatMs, cited, answered, chatCount });
  } finally {
    await server.kill();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(
  kind: EmbedderKind,
  rankings: Record<'keyword' | 'meaning' | 'hybrid' | 'peer', Ranked[]>,
  timing: { searchMs: number[]; chatMs: number[]; cited: number; answered: number; chatCount: number },
) {
  const names = {
    keyword: 'keyword leg alone (FTS5 BM25)',
    meaning:
      kind === 'use'
        ? 'meaning leg alone (USE-lite cosine)'
        : 'meaning leg alone (USE-lite shifted onto another scale)',
    hybrid: 'hybrid (GET /v1/search)',
    peer: 'peer: MiniSearch 7 (defaults)',
  } as const;
  const categories = [...new Set(questions.map((q) => q.category))].sort();
  const summary = (ranked: Ranked[], keep: (q: MemoryQuestion) => boolean) => {
    const rows = questions.flatMap((q, i) => (keep(q) ? [score(ranked[i]!, q.evidence)] : []));
    return {
      n: rows.length,
      hit1: mean(rows.map((r) => r.hit1)),
      hit5: mean(rows.map((r) => r.hit5)),
      hit10: mean(rows.map((r) => r.hit10)),
      recall10: mean(rows.map((r) => r.recall10)),
    };
  };
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

  console.log(
    `\nbench:memory on LoCoMo (${locomoDir().replace(/^.*\/data\//, 'data/')}), through the HTTP API of the local server; embedder: ${kind === 'use' ? 'universal-sentence-encoder-lite (offline default)' : `${SHIFTED_MODEL} (the same vectors on another cosine scale, served as an OpenAI-compatible embedder)`}`,
  );
  console.log(machineLine());
  console.log(
    `${conversations.length} libraries (${conversations.map((c) => c.id).join(', ')}), ` +
      `${conversations.reduce((n, c) => n + c.turns.length, 0)} memories, ${questions.length} questions (categories 1-4), limit=10`,
  );
  console.log(
    '| ranking | category | n | hit@1 | hit@5 | hit@10 | recall@10 |\n| --- | --- | --- | --- | --- | --- | --- |',
  );
  const overall: Record<string, ReturnType<typeof summary>> = {};
  const perCategory: Record<string, Record<number, ReturnType<typeof summary>>> = {};
  for (const [key, name] of Object.entries(names) as Array<[keyof typeof names, string]>) {
    perCategory[key] = {};
    for (const category of categories) {
      const s = summary(rankings[key], (q) => q.category === category);
      perCategory[key]![category] = s;
      console.log(
        `| ${name} | ${category} ${CATEGORY_NAMES[category]} | ${s.n} | ${pct(s.hit1)} | ${pct(s.hit5)} | ${pct(s.hit10)} | ${pct(s.recall10)} |`,
      );
    }
    const s = summary(rankings[key], () => true);
    overall[key] = s;
    console.log(
      `| **${name}** | **all** | ${s.n} | ${pct(s.hit1)} | ${pct(s.hit5)} | ${pct(s.hit10)} | ${pct(s.recall10)} |`,
    );
  }

  if (args.verbose) {
    questions.forEach((q, i) => {
      if (!score(rankings.hybrid[i]!, q.evidence).hit10)
        log(
          `MISS [${q.category}] ${q.question}; evidence ${q.evidence.join(' ')}; got ${rankings.hybrid[i]!.slice(0, 3).join(' ')}`,
        );
    });
  }

  const h = overall.hybrid!;
  const belowKeyword = categories.filter((c) => perCategory.hybrid![c]!.hit10 < perCategory.keyword![c]!.hit10);
  const searchP50 = percentile(timing.searchMs, 50);
  const chatP50 = percentile(timing.chatMs, 50);
  const chatShare = timing.chatCount ? timing.cited / timing.chatCount : NaN;
  chatShares.set(kind, chatShare);
  const goals: Array<[string, string, string, boolean]> = [
    ['hybrid hit@10', pct(h.hit10), '>= 85%', h.hit10 >= 0.85],
    ['hybrid hit@5', pct(h.hit5), '>= 75%', h.hit5 >= 0.75],
    [
      'hybrid hit@10 never below the keyword leg in a category',
      belowKeyword.length ? `below in ${belowKeyword.join(', ')}` : 'never below',
      'never below',
      !belowKeyword.length,
    ],
    [
      'hybrid hit@10 above MiniSearch',
      `${pct(h.hit10)} vs ${pct(overall.peer!.hit10)}`,
      'above',
      h.hit10 > overall.peer!.hit10,
    ],
    [
      `chat: a cited source is an evidence turn (${timing.chatCount} questions)`,
      pct(chatShare),
      '>= 85%',
      chatShare >= 0.85,
    ],
    ['chat latency p50 over HTTP (ms)', chatP50.toFixed(1), '<= 150', chatP50 <= 150],
    ['search latency p50 over HTTP (ms)', searchP50.toFixed(1), '<= 25', searchP50 <= 25],
  ];
  console.log('\n| goal | value | target | met |\n| --- | --- | --- | --- |');
  for (const [name, value, target, met] of goals)
    console.log(`| ${name} | ${value} | ${target} | ${met ? 'yes' : 'NO'} |`);
  console.log(
    `\nchat: answered with sources ${pct(timing.chatCount ? timing.answered / timing.chatCount : NaN)}, latency p95 ${percentile(timing.chatMs, 95).toFixed(1)} ms; ` +
      `search p95 ${percentile(timing.searchMs, 95).toFixed(1)} ms over ${timing.searchMs.length} calls`,
  );
  console.log(machineLine());
}
