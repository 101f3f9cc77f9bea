import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderPool } from '../../lambdas/adapters/local/embedder-pool.js';
import type { ChatResponse } from '../../lambdas/core/chat/chat-service.js';
import type { Embedder } from '../../lambdas/core/ports.js';
import { type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HELD_OUT_3 } from '../support/everyday-held-out-3.js';
import { type EverydaySet, HELD_OUT, HELD_OUT_2, TRAIN } from '../support/everyday-notes.js';
import { TRAIN_ISSUE } from '../support/everyday-small-libraries.js';
import { ShiftedEmbedder } from '../support/shifted-embedder.js';

/**
 * The chat over everyday notes asked in other words (issue 18), on the
 * offline default a new user gets (USE-lite, the extractive answerer), and
 * on a second embedder with another cosine scale: the gate, calibrated per
 * embedder, answers and refuses exactly alike. The figures asserted are the
 * ones measured (bench:everyday prints them); they guard against a gate or
 * answerer that answers fewer or refuses fewer, and are below the issue's
 * goals (docs/chat.md, "Evaluation", says by how much and why).
 */
let pool: EmbedderPool;
beforeAll(async () => {
  pool = await EmbedderPool.start();
}, 120_000);
afterAll(() => pool?.close());

interface Asked {
  response: ChatResponse;
  cited: string[];
}

/** Captures a set's notes in a fresh library and asks every question and unrelated question, in order. */
async function askAll(set: EverydaySet, embedder: Embedder): Promise<{ answers: Asked[]; unrelated: Asked[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'library-everyday-'));
  const stack: LocalStack = await openLocalStack({ dataDir: dir, embedder });
  try {
    const ref = { tenantId: 'ten_everyday', endUserId: null };
    const noteOf = new Map<string, string>();
    for (const note of set.notes)
      noteOf.set((await stack.services.capture.capture(ref, { text: note.text, sourceRef: note.id })).id!, note.id);
    await stack.settled();
    const ask = async (question: string): Promise<Asked> => {
      const response = await stack.services.chat.chat(ref, question);
      await stack.settled();
      return { response, cited: response.sources.map((s) => noteOf.get(s.file_id) ?? '?') };
    };
    const answers: Asked[] = [];
    for (const q of set.questions) answers.push(await ask(q.question));
    const unrelated: Asked[] = [];
    for (const q of set.unrelated) unrelated.push(await ask(q));
    return { answers, unrelated };
  } finally {
    stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const share = (hits: number, of: number) => hits / of;
/** A set's notes written as `id: text`. */
const notesOf = (notes: Record<string, string>): EverydaySet['notes'] =>
  Object.entries(notes).map(([id, text]) => ({ id, text }));

describe('everyday notes asked in other words', () => {
  let trained: Awaited<ReturnType<typeof askAll>>;
  beforeAll(async () => {
    trained = await askAll(TRAIN, pool);
  }, 300_000);

  it('the set the gate was tuned on: the right note cited for most questions, every unrelated question refused', () => {
    const right = TRAIN.questions.filter((q, i) =>
      trained.answers[i]!.cited.some((id) => q.answers.includes(id)),
    ).length;
    expect(share(right, TRAIN.questions.length)).toBeGreaterThanOrEqual(0.8);
    for (const [i, asked] of trained.unrelated.entries())
      expect(asked.response.sources, TRAIN.unrelated[i]).toEqual([]);
  });

  it('answers what a question wants: an amount, a time, a summary of one note, a table of the prices', () => {
    const reply = (question: string) =>
      trained.answers[TRAIN.questions.findIndex((q) => q.question === question)]!.response;
    expect(reply('how much did the new battery cost me').reply).toContain('£128');
    expect(reply('when am I seeing the dentist').reply).toContain('Tuesday 4 April at 3:20pm');
    const garden = reply('summarise my plans for the garden');
    expect(garden.reply).toContain('tomatoes and courgettes in the raised bed');
    expect(garden.reply).toContain('Order seeds by mid-February');
    const table = reply('make a table of the worktop prices').artifacts.find((a) => a.type === 'table');
    expect(table?.content).toMatch(/£2,400/);
    expect(table?.content).toMatch(/£1,850/);
    expect(table?.content).toMatch(/£2,100/);
  });

  it('the held-out set, with the offline embedder and with one on another cosine scale: the same answers, the same refusals', async () => {
    const [offline, shifted] = [await askAll(HELD_OUT, pool), await askAll(HELD_OUT, new ShiftedEmbedder(pool))];
    expect(shifted.answers.map((a) => a.cited)).toEqual(offline.answers.map((a) => a.cited));
    expect(shifted.unrelated.map((a) => a.cited)).toEqual(offline.unrelated.map((a) => a.cited));
    // Measured: 29 of 46 right (63.0%; 69.6% before a note standing out in meaning had to name what is asked about,
    // 65.2% before requests for things of a kind, 56.5% before words' base forms, rarity and money), 16 of 18
    // unrelated refused (88.9%; 83.3% before).
    const right = HELD_OUT.questions.filter((q, i) =>
      offline.answers[i]!.cited.some((id) => q.answers.includes(id)),
    ).length;
    const refused = offline.unrelated.filter((a) => !a.response.sources.length).length;
    expect(share(right, HELD_OUT.questions.length)).toBeGreaterThanOrEqual(0.6);
    expect(share(refused, HELD_OUT.unrelated.length)).toBeGreaterThanOrEqual(0.85);
  }, 300_000);

  it('a second held-out set, written after the last change to the gate', async () => {
    const { answers, unrelated } = await askAll(HELD_OUT_2, pool);
    // Measured once: 24 of 28 right (85.7%; 82.1% with the gate before), 10 of 12 unrelated refused. Since then 25
    // right, then 24 again with 11 of 12 refused once a note standing out in meaning had to name what is asked about.
    const right = HELD_OUT_2.questions.filter((q, i) => answers[i]!.cited.some((id) => q.answers.includes(id))).length;
    const refused = unrelated.filter((a) => !a.response.sources.length).length;
    expect(share(right, HELD_OUT_2.questions.length)).toBeGreaterThanOrEqual(0.8);
    expect(share(refused, HELD_OUT_2.unrelated.length)).toBeGreaterThanOrEqual(0.9);
  }, 300_000);

  it('a third held-out set, written by another hand without the code or the other sets', async () => {
    const { answers, unrelated } = await askAll(HELD_OUT_3, pool);
    // Measured once: 19 of 34 right (55.9%; 18 before requests for things of a kind), 16 of 16 unrelated refused.
    const right = HELD_OUT_3.questions.filter((q, i) => answers[i]!.cited.some((id) => q.answers.includes(id))).length;
    const refused = unrelated.filter((a) => !a.response.sources.length).length;
    expect(share(right, HELD_OUT_3.questions.length)).toBeGreaterThanOrEqual(0.5);
    expect(share(refused, HELD_OUT_3.unrelated.length)).toBeGreaterThanOrEqual(0.9);
  }, 300_000);
});

describe('a small library, where the closest note may only be about the same sort of thing', () => {
  it("the issue's own library: the right note for nearly every request, and no question about something else answered from a note next door to it; alike on two cosine scales", async () => {
    for (const embedder of [pool, new ShiftedEmbedder(pool)]) {
      const { answers, unrelated } = await askAll(TRAIN_ISSUE, embedder);
      // Measured: 24 of 24 right; the 8 unrelated all refused (5 before: "how much is the council tax" was answered
      // from the rent's note, "when is my eye test" from a haircut's).
      const right = TRAIN_ISSUE.questions.filter((q, i) =>
        answers[i]!.cited.some((id) => q.answers.includes(id)),
      ).length;
      expect(share(right, TRAIN_ISSUE.questions.length)).toBeGreaterThanOrEqual(0.9);
      for (const [i, asked] of unrelated.entries())
        expect(asked.response.sources, `${embedder.name}: ${TRAIN_ISSUE.unrelated[i]}`).toEqual([]);
    }
  }, 300_000);
});

describe('requests for the things of a kind, over notes that never name the kind', () => {
  const NOTES = {
    fence: 'Fence quotes: Hayes Fencing £1,240, GardenPro £980 and Oakline £1,410. Oakline can start soonest.',
    optician: 'Optician on Wednesday 9 July at 2:15pm, bring old glasses.',
    hairdresser: 'Hairdresser booked Saturday 11am with Kim, £45 cut and colour.',
    streaming: 'Spotify family plan £17.99 a month, Disney+ £7.99 a month, iCloud 200GB £2.99 monthly.',
    plumber: 'Plumber fixed the kitchen tap, charged £95 including parts.',
    teacher: "Parents meeting with Miss Hughes on Thursday 6pm about Leo's reading.",
    gym: 'Gym membership is £34 per month, renews in January.',
    mot: 'Booked the MOT for Friday 14th at 8:30 at Kwik Fit.',
    kit: "Leo's football kit: boots £39, shin pads £12, socks £6.",
    recipe: 'Flapjacks: melt 125g butter with 100g golden syrup, stir in 250g oats, bake 25 minutes.',
  };
  const SET: EverydaySet = {
    notes: notesOf(NOTES),
    questions: [
      { question: 'what appointments have I got', answers: ['optician', 'teacher', 'mot', 'hairdresser'], ask: 'list' },
      { question: 'make a table of my monthly subscriptions', answers: ['streaming', 'gym'], ask: 'table' },
      { question: 'put the fence quotes in a table', answers: ['fence'], ask: 'table' },
      { question: 'make a table of what I pay each month', answers: ['streaming', 'gym'], ask: 'table' },
      { question: 'what appointments have I got on Thursday', answers: ['teacher'], ask: 'list' },
    ],
    unrelated: ['list the countries I visited last year', 'make a table of my marathon times'],
  };

  it('lists the appointments, tables the subscriptions and the quotes, refuses what the notes do not hold; alike on two cosine scales', async () => {
    const [offline, shifted] = [await askAll(SET, pool), await askAll(SET, new ShiftedEmbedder(pool))];
    expect(shifted.answers.map((a) => a.cited)).toEqual(offline.answers.map((a) => a.cited));
    const [appointments, subscriptions, fence, eachMonth, thursday] = offline.answers;

    // Every appointment is listed, each by its line with the day; no note without a day or time is ("renews in January").
    expect(appointments!.cited).toEqual(expect.arrayContaining(['optician', 'teacher', 'mot', 'hairdresser']));
    for (const other of ['plumber', 'gym', 'streaming', 'fence', 'kit', 'recipe'])
      expect(appointments!.cited).not.toContain(other);
    expect(appointments!.response.reply).toContain('- Booked the MOT for Friday 14th at 8:30 at Kwik Fit.');
    // Narrowed to a day: only the note of that day.
    expect(thursday!.cited).toEqual(['teacher']);

    // The subscriptions, asked either way: the notes stating an amount per month, a row for each price.
    for (const perMonth of [subscriptions!, eachMonth!]) {
      expect([...perMonth.cited].sort()).toEqual(['gym', 'streaming']);
      const table = perMonth.response.artifacts.find((a) => a.type === 'table')!;
      expect(table.content).toContain('| Disney+ | £7.99 a month |');
      expect(table.content).toContain('| Gym membership | £34 per month, renews in January |');
    }

    // A note listing three quotes: a row for each.
    expect(fence!.cited[0]).toBe('fence');
    const quotes = fence!.response.artifacts.find((a) => a.type === 'table')!;
    for (const row of ['| Hayes Fencing | £1,240 |', '| GardenPro | £980 |', '| Oakline | £1,410 |'])
      expect(quotes.content).toContain(row);

    for (const refused of offline.unrelated) expect(refused.response.sources).toEqual([]);
  }, 300_000);
});

describe('a question that asks two things at once', () => {
  const NOTES = {
    wedding: 'Priya and Tom’s wedding is on 21 June in Bath. We booked the Royal Crescent hotel for two nights, £310.',
    dentist: 'Dentist check-up for both kids on Wednesday 14th at 3:45, Dr Patel at Smile Studio.',
    rent: 'Landlord emailed: rent goes up from £1,250 to £1,340 a month from 1 September.',
    bike: 'Sold the old bike on Facebook Marketplace for £140 to a student from Leeds.',
    boiler:
      'Boiler stopped heating water on Sunday. The engineer replaced the diverter valve, £186 including call-out.',
    passport: 'Renewed my passport online, it cost £88.50 and should arrive within three weeks.',
  };
  const SET: EverydaySet = {
    notes: notesOf(NOTES),
    questions: [
      { question: 'where are we staying for the wedding and what does it cost', answers: ['wedding'], ask: 'fact' },
      {
        question: 'when are the kids at the dentist? and what is the new rent',
        answers: ['dentist', 'rent'],
        ask: 'fact',
      },
    ],
    unrelated: ['what is my blood type, and when is the book club?', 'who won the cup final and what was the score'],
  };

  it('is answered from the note that answers either ask, and refused when the library answers neither; alike on two cosine scales', async () => {
    const [offline, shifted] = [await askAll(SET, pool), await askAll(SET, new ShiftedEmbedder(pool))];
    expect(shifted.answers.map((a) => a.cited)).toEqual(offline.answers.map((a) => a.cited));
    const [wedding, both] = offline.answers;
    // Refused whole before: "staying" and "cost" are words the wedding note does not hold.
    expect(wedding!.cited[0]).toBe('wedding');
    expect(wedding!.response.reply).toContain('£310');
    expect(both!.cited).toEqual(expect.arrayContaining(['dentist', 'rent']));
    expect(both!.response.reply).toContain('Wednesday 14th at 3:45');
    expect(both!.response.reply).toContain('£1,340');
    for (const refused of [...offline.unrelated, ...shifted.unrelated]) expect(refused.response.sources).toEqual([]);
  }, 300_000);
});
