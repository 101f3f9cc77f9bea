/**
 * npm run bench:everyday — the chat over everyday notes asked in other words
 * (test/support/everyday-notes.ts), as a new user meets it: the local stack,
 * the offline answerer, each note captured as a text. For each question:
 * whether the reply's sources include a note that answers it (and, over
 * all the answers, how many of the notes cited answer: a reply citing the
 * right note among five wrong ones is not a good answer); for each
 * unrelated question, whether it got the no-answer reply with no sources;
 * whether a table or list request got its table or list. Run with the
 * offline embedder (USE-lite) and with a second embedder on another cosine
 * scale (test/support/shifted-embedder.ts: the same meaning, every cosine
 * moved up), so the gate's calibration is measured, not assumed.
 *
 * Goals (issue 18): right note cited >= 90% of answerable questions,
 * unrelated refused >= 95%, with each embedder; chat p50 <= 150 ms.
 *
 * Options: --set held-out|held-out-2|...|held-out-11|train|train-home|train-small|train-issue|train-family
 *          (default held-out: the reported figures; held-out-2 to -5 written later, each measured
 *          once; tune on the train sets),
 *          --embedder use|shifted|both (default both), --verbose (each miss and wrong answer)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbedderPool } from '../lambdas/adapters/local/embedder-pool.js';
import type { LibraryRef } from '../lambdas/core/model.js';
import type { Embedder } from '../lambdas/core/ports.js';
import { openLocalStack } from '../lambdas/wiring/local/local-stack.js';
import { HELD_OUT_3 } from '../test/support/everyday-held-out-3.js';
import { HELD_OUT_6 } from '../test/support/everyday-held-out-6.js';
import { HELD_OUT_7 } from '../test/support/everyday-held-out-7.js';
import { HELD_OUT_8 } from '../test/support/everyday-held-out-8.js';
import { HELD_OUT_9 } from '../test/support/everyday-held-out-9.js';
import { HELD_OUT_10 } from '../test/support/everyday-held-out-10.js';
import { HELD_OUT_11 } from '../test/support/everyday-held-out-11.js';
import { type EverydaySet, HELD_OUT, HELD_OUT_2, TRAIN, TRAIN_HOME } from '../test/support/everyday-notes.js';
import {
  HELD_OUT_4,
  HELD_OUT_5,
  TRAIN_FAMILY,
  TRAIN_ISSUE,
  TRAIN_SMALL,
} from '../test/support/everyday-small-libraries.js';
import { ShiftedEmbedder } from '../test/support/shifted-embedder.js';
import { benchArgs } from './lib/args.js';
import { machineLine } from './lib/machine.js';
import { percentile } from './lib/metrics.js';

const args = benchArgs('bench:everyday', {
  options: {
    set: { type: 'string', default: 'held-out' },
    embedder: { type: 'string', default: 'both' },
    verbose: { type: 'boolean', default: false },
  },
});
const SETS: Record<string, EverydaySet> = {
  'held-out': HELD_OUT,
  'held-out-2': HELD_OUT_2,
  'held-out-3': HELD_OUT_3,
  'held-out-4': HELD_OUT_4,
  'held-out-5': HELD_OUT_5,
  'held-out-6': HELD_OUT_6,
  'held-out-7': HELD_OUT_7,
  'held-out-8': HELD_OUT_8,
  'held-out-9': HELD_OUT_9,
  'held-out-10': HELD_OUT_10,
  'held-out-11': HELD_OUT_11,
  train: TRAIN,
  'train-home': TRAIN_HOME,
  'train-small': TRAIN_SMALL,
  'train-issue': TRAIN_ISSUE,
  'train-family': TRAIN_FAMILY,
};
const set = SETS[args.set!];
if (!set) throw new Error(`--set must be one of ${Object.keys(SETS).join(', ')}`);
const pool = await EmbedderPool.start();
const embedders: Embedder[] = [];
if (args.embedder !== 'shifted') embedders.push(pool);
if (args.embedder !== 'use') embedders.push(new ShiftedEmbedder(pool));

interface Result {
  embedder: string;
  cited: number;
  answerable: number;
  /** Over the answers given to answerable questions: the notes cited, and those of them that answer. */
  notesCited: number;
  notesAnswering: number;
  refused: number;
  unrelated: number;
  creations: number;
  creationAsks: number;
  latencies: number[];
  scale: string;
}
const results: Result[] = [];

for (const embedder of embedders) {
  const dataDir = mkdtempSync(join(tmpdir(), 'library-bench-everyday-'));
  const stack = await openLocalStack({ dataDir, embedder });
  const ref: LibraryRef = { tenantId: 'ten_everyday', endUserId: null };
  try {
    const noteOf = new Map<string, string>();
    for (const note of set.notes) {
      const receipt = await stack.services.capture.capture(ref, { text: note.text, sourceRef: note.id });
      if (!receipt.ok) throw new Error(`capture of ${note.id}: ${receipt.detail}`);
      noteOf.set(receipt.id!, note.id);
    }
    await stack.settled();
    const scale = await stack.ports.cosineScale!();
    const result: Result = {
      embedder: embedder.name,
      cited: 0,
      answerable: set.questions.length,
      notesCited: 0,
      notesAnswering: 0,
      refused: 0,
      unrelated: set.unrelated.length,
      creations: 0,
      creationAsks: 0,
      latencies: [],
      scale: scale ? `related ${scale.related.toFixed(3)}, unrelated ${scale.unrelated.toFixed(3)}` : 'none',
    };
    const ask = async (question: string) => {
      const started = performance.now();
      const response = await stack.services.chat.chat(ref, question);
      result.latencies.push(performance.now() - started);
      await stack.settled(); // the exchange is remembered before the next question, as when a person reads the reply
      return response;
    };
    for (const q of set.questions) {
      const response = await ask(q.question);
      const cited = response.sources.map((s) => noteOf.get(s.file_id) ?? '?');
      const right = cited.some((id) => q.answers.includes(id));
      if (right) result.cited += 1;
      const notes = new Set(cited);
      result.notesCited += notes.size;
      result.notesAnswering += [...notes].filter((id) => q.answers.includes(id)).length;
      if (q.ask === 'table' || q.ask === 'list') {
        result.creationAsks += 1;
        const made =
          q.ask === 'table'
            ? response.artifacts.some((a) => a.type === 'table')
            : response.artifacts.length > 0 || /\n- /.test(response.reply);
        if (made) result.creations += 1;
        else if (args.verbose) console.log(`[${embedder.name}] NO ${q.ask.toUpperCase()}: ${q.question}`);
      }
      const wrong = [...notes].filter((id) => !q.answers.includes(id));
      if (args.verbose && right && wrong.length)
        console.log(
          `[${embedder.name}] ALSO CITED (${q.ask}) ${q.question} -> ${wrong.join(', ')} beside ${q.answers.join(' | ')}\n   ${response.reply.slice(0, 200).replace(/\n/g, ' ')}`,
        );
      if (args.verbose && !right)
        console.log(
          `[${embedder.name}] MISS (${q.ask}) ${q.question} -> ${cited.join(', ') || 'refused'}; want ${q.answers.join(' | ')}\n   ${response.reply.slice(0, 160).replace(/\n/g, ' ')}`,
        );
    }
    for (const question of set.unrelated) {
      const response = await ask(question);
      if (!response.sources.length) result.refused += 1;
      else if (args.verbose)
        console.log(
          `[${embedder.name}] ANSWERED UNRELATED: ${question} -> ${response.sources.map((s) => noteOf.get(s.file_id)).join(', ')}`,
        );
    }
    results.push(result);
  } finally {
    stack.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
await pool.close();

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}% (${n}/${d})`;
console.log(
  `\nbench:everyday, ${args.set} set: ${set.notes.length} notes, ${set.questions.length} questions in other words, ${set.unrelated.length} unrelated`,
);
console.log(machineLine());
console.log(
  '| embedder | its scale (median cosine: question-answer, unrelated) | right note cited | cited notes that answer | unrelated refused | table/list made | chat p50 ms |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  console.log(
    `| ${r.embedder} | ${r.scale} | ${pct(r.cited, r.answerable)} | ${pct(r.notesAnswering, r.notesCited)} | ${pct(r.refused, r.unrelated)} | ${pct(r.creations, r.creationAsks)} | ${percentile(r.latencies, 50).toFixed(1)} |`,
  );
}
console.log('\n| goal | value | target | met |\n| --- | --- | --- | --- |');
for (const r of results) {
  const cited = r.cited / r.answerable;
  const refused = r.refused / r.unrelated;
  console.log(
    `| ${r.embedder}: right note cited | ${(100 * cited).toFixed(1)}% | >= 90% | ${cited >= 0.9 ? 'yes' : 'NO'} |`,
  );
  console.log(
    `| ${r.embedder}: unrelated refused | ${(100 * refused).toFixed(1)}% | >= 95% | ${refused >= 0.95 ? 'yes' : 'NO'} |`,
  );
  console.log(
    `| ${r.embedder}: chat p50 | ${percentile(r.latencies, 50).toFixed(1)} ms | <= 150 ms | ${percentile(r.latencies, 50) <= 150 ? 'yes' : 'NO'} |`,
  );
}
