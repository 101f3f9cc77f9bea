import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTIVE, ExtractiveAnswerer } from '../../lambdas/adapters/local/extractive-answerer.js';
import { HOLDS, wanted } from '../../lambdas/core/chat/answer-kinds.js';
import type { GroundingPassage } from '../../lambdas/core/ports.js';

const falcon: GroundingPassage = {
  number: 1,
  title: 'Falcon status',
  lineStart: 1,
  lines: [
    'Project Falcon status report',
    '',
    'The Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells.',
    'Budget: 2.4 million euros. The team lead is Ingrid Solberg, who reports',
    'to the CTO every Friday.',
    '',
    'Risks',
    'The main risk is the battery supplier in Gdansk.',
    'A second risk is the certification in Japan.',
  ],
};
const heron: GroundingPassage = {
  number: 2,
  title: 'Heron',
  lineStart: 10,
  lines: ['The grey heron nests near the lake from February to June.'],
};

const answerer = new ExtractiveAnswerer();
const quotedFrom = (passages: GroundingPassage[]) =>
  passages
    .flatMap((p) => p.lines)
    .join(' ')
    .replace(/\s+/g, ' ');

describe('ExtractiveAnswerer', () => {
  it('answers with the sentence that holds the question, verbatim, citing its passage and exact lines', async () => {
    const answer = await answerer.answer({
      question: 'When is the Falcon launch?',
      passages: [falcon, heron],
      itemize: false,
    });
    expect(answer.reply).toMatch(
      /^From your library: The Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells\. \[1\]/,
    );
    expect(answer.citations[0]).toEqual({
      passage: 1,
      lines: [3],
      quote: 'The Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells.',
    });
    expect(answer.reply).not.toContain('heron');
    expect(answer.usage.promptTokens).toBeGreaterThan(40);
    expect(answer.usage.completionTokens).toBeGreaterThan(10);
  });

  it('follows a sentence across a wrapped line and cites both lines', async () => {
    const answer = await answerer.answer({
      question: 'Who is the team lead and whom does she report to?',
      passages: [falcon],
      itemize: false,
    });
    expect(answer.citations[0]).toMatchObject({
      passage: 1,
      lines: [4, 5],
      quote: 'The team lead is Ingrid Solberg, who reports to the CTO every Friday.',
    });
  });

  it('answers a heading with the lines under it, and itemizes for lists', async () => {
    const answer = await answerer.answer({ question: 'List the risks', passages: [falcon, heron], itemize: true });
    expect(answer.reply).toBe(
      'From your library:\n- The main risk is the battery supplier in Gdansk. [1]\n- A second risk is the certification in Japan. [1]',
    );
    expect(answer.citations.map((c) => c.lines)).toEqual([[8], [9]]);
  });

  it('gathers evidence from several passages for a short answer, never writing words that are not in them', async () => {
    const answer = await answerer.answer({
      question: 'battery supplier Gdansk and heron nests',
      passages: [falcon, heron],
      itemize: false,
    });
    expect(new Set(answer.citations.map((c) => c.passage))).toEqual(new Set([1, 2]));
    const text = quotedFrom([falcon, heron]);
    for (const c of answer.citations) expect(text).toContain(c.quote);
  });

  it('has no answer when no sentence holds any of the question', async () => {
    const answer = await answerer.answer({
      question: 'What is the capital of Peru?',
      passages: [falcon, heron],
      itemize: false,
    });
    expect(answer).toMatchObject({ reply: null, citations: [] });
  });
});

describe('ExtractiveAnswerer: a sentence longer than maxSentenceChars', () => {
  const narrow = new ExtractiveAnswerer({ ...DEFAULT_EXTRACTIVE, maxSentenceChars: 40 });
  const quoteOf = async (line: string) => {
    const passage: GroundingPassage = { number: 1, title: null, lineStart: 1, lines: [line] };
    const answer = await narrow.answer({ question: 'When is the Falcon launch?', passages: [passage], itemize: false });
    return { reply: answer.reply, quote: answer.citations[0]!.quote };
  };

  it('is cut before the word the limit falls in, with an ellipsis in the reply', async () => {
    expect(
      await quoteOf('The Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells.'),
    ).toEqual({
      reply: 'From your library: The Falcon launch moved to 14 March… [1]',
      quote: 'The Falcon launch moved to 14 March',
    });
    // The limit falls on a space: the cut drops it; a first word past the limit is cut inside.
    expect((await quoteOf('The Falcon launch of the batteries was at noon on a Friday.')).quote).toBe(
      'The Falcon launch of the batteries was',
    );
    expect((await quoteOf(`Falcon${'x'.repeat(60)} launch moved.`)).quote).toBe(`Falcon${'x'.repeat(33)}`);
  });
});

describe('ExtractiveAnswerer and document titles', () => {
  it('quotes a matching title that heads nothing (a blank line below it) rather than dropping its document', async () => {
    const chicken: GroundingPassage = {
      number: 1,
      title: null,
      lineStart: 1,
      lines: ['Somatic sex identity is cell-autonomous in the chicken', ''],
    };
    const other: GroundingPassage = {
      number: 2,
      title: null,
      lineStart: 4,
      lines: ['Stem cells were transplanted in patients with autonomic neuropathy.'],
    };
    const answer = await answerer.answer({
      question: 'Is somatic sex identity cell-autonomous in birds?',
      passages: [chicken, other],
      itemize: false,
    });
    expect(answer.citations[0]).toMatchObject({
      passage: 1,
      lines: [1],
      quote: 'Somatic sex identity is cell-autonomous in the chicken',
    });
  });
});

describe('ExtractiveAnswerer: what it quotes', () => {
  it('quotes a second sentence only when it is nearly as strong as the best, and none from a note about something else', async () => {
    const launch: GroundingPassage = {
      number: 1,
      title: null,
      lineStart: 1,
      lines: ['Project Falcon: the launch moved to 14 March 2027 because the battery supplier delayed the cells.'],
    };
    const office: GroundingPassage = {
      number: 2,
      title: null,
      lineStart: 1,
      lines: ['Meeting notes: we agreed to move the office to Lisbon in June.'],
    };
    const answer = await answerer.answer({
      question: 'When is the Falcon launch and why did it move?',
      passages: [launch, office],
      itemize: false,
    });
    // The office note lacks the Falcon launch the best note holds and names another thing (Lisbon): not even cited.
    // (Until the two notes' "Project Falcon:" and "Meeting notes:" were no longer read as a conversation's speaker
    // labels, it was cited as further evidence.)
    expect(answer.reply).toBe(
      'From your library: Project Falcon: the launch moved to 14 March 2027 because the battery supplier delayed the cells. [1]',
    );
    expect(answer.citations.map((c) => c.passage)).toEqual([1]);

    const both = await answerer.answer({
      question: 'Where do herons and egrets nest?',
      passages: [
        { number: 1, title: null, lineStart: 1, lines: ['Herons nest in tall reed beds near the lake.'] },
        { number: 2, title: null, lineStart: 1, lines: ['Egrets nest in colonies on the river islands.'] },
      ],
      itemize: false,
    });
    expect(both.reply).toBe(
      'From your library: Herons nest in tall reed beds near the lake. [1] Egrets nest in colonies on the river islands. [2]',
    );
  });
});

describe('ExtractiveAnswerer: a table asked for by meaning', () => {
  it('itemizes the passages in search order when none shares a word with a table request, yet still refuses a short answer', async () => {
    const fruit: GroundingPassage = {
      number: 1,
      title: null,
      lineStart: 1,
      lines: ['apples 2.40 a kilo', 'pears 3.10 a kilo'],
    };
    const table = await new ExtractiveAnswerer().answer({
      question: 'make a table of the fruit prices',
      passages: [fruit],
      itemize: true,
    });
    const quoted = table.citations.map((c) => c.quote).join('\n');
    expect(quoted).toContain('apples 2.40 a kilo');
    expect(quoted).toContain('pears 3.10 a kilo');
    expect(table.citations.every((c) => c.passage === 1)).toBe(true);
    const short = await new ExtractiveAnswerer().answer({
      question: 'what do fruits cost',
      passages: [fruit],
      itemize: false,
    });
    expect(short).toMatchObject({ reply: null, citations: [] });

    // Eight notes of eight stalls: every one is itemized, in search order (none is cut for ranking seventh or later).
    const notes = [
      'apples 2.40',
      'pears 3.10',
      'plums 4.50',
      'cherries 9.00',
      'quinces 3.80',
      'figs 6.20',
      'grapes 4.10',
      'lemons 2.90',
    ];
    const stalls: GroundingPassage[] = notes.map((note, i) => ({
      number: i + 1,
      title: null,
      lineStart: 1,
      lines: [`${note} a kilo`],
    }));
    const all = await new ExtractiveAnswerer().answer({
      question: 'make a table of the fruit prices',
      passages: stalls,
      itemize: true,
    });
    expect(all.citations.map((c) => c.passage)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('ExtractiveAnswerer: what a question wants', () => {
  const note = (number: number, line: string, extra: Partial<GroundingPassage> = {}): GroundingPassage => ({
    number,
    title: null,
    lineStart: 1,
    lines: [line],
    ...extra,
  });
  const boiler = note(
    1,
    'Boiler engineer came: the pressure valve was faulty, so he replaced it. Labour £90, part £45. Heating back on by lunchtime.',
  );
  /** The sentence a short answer quotes first. */
  const firstQuote = async (question: string, passages: GroundingPassage[]) =>
    (await answerer.answer({ question, passages, itemize: false })).citations[0]!.quote;

  it('a question of an amount is answered first by the sentence of the note that holds one', async () => {
    expect(await firstQuote('how much did the boiler repair cost?', [boiler])).toBe('Labour £90, part £45.');
  });

  it('a question of a time is answered by the sentence that holds one, from a note that supports it by meaning alone', async () => {
    const bike = note(1, 'Bike service at Evans Cycles: new chain and brake pads. Ready to collect Thursday after 4.', {
      byMeaning: true,
      supports: true,
    });
    const cake = note(2, "I'm ordering the cake from Bettys, picking it up that morning.");
    const answer = await answerer.answer({
      question: 'when can I pick up my bicycle?',
      passages: [bike, cake],
      itemize: false,
    });
    expect(answer.citations[0]).toMatchObject({ passage: 1, quote: 'Ready to collect Thursday after 4.' });
  });

  it("a follow-up is answered from the note the conversation found, by its sentence holding what is asked, though it shares none of the follow-up's words", async () => {
    // "and how much did that cost?" after "what was wrong with the car?": the car note supports the answer (it was
    // found with the turn before); two notes admitted beside it by meaning hold amounts of other things.
    const car = note(
      1,
      "Car wouldn't start Monday morning, flat battery. New Varta battery fitted at Halfords on Wednesday for £139.",
      { supports: true },
    );
    const rent = note(2, 'Landlord letter: rent going up from £950 to £1,025 a month from 1 September.', {
      byMeaning: true,
    });
    const washer = note(3, 'Repair man replaced the washing machine gasket, £85 including call out.', {
      byMeaning: true,
    });
    const answer = await answerer.answer({
      question: 'and how much did that cost?',
      passages: [car, rent, washer],
      itemize: false,
    });
    expect(answer.citations[0]).toMatchObject({
      passage: 1,
      quote: 'New Varta battery fitted at Halfords on Wednesday for £139.',
    });
    // Of the notes only admitted and sharing no word of the question, one at most is cited beside it.
    expect(answer.citations.filter((c) => c.passage !== 1).length).toBeLessThanOrEqual(1);
  });

  it('cites beside the answer at most one note that shares no word of the question and was only admitted', async () => {
    const tax = note(1, 'Tax return submitted 14 January. Owe £2,340, pay by 31 January.', { supports: true });
    const others = [
      'Washing machine gasket replaced, £85 including call out.',
      'Grey sofa from DFS, £1,199, paid £200 deposit.',
      'Swimming lessons are £38 a month each by direct debit.',
    ].map((text, i) => note(i + 2, text, { byMeaning: true, supports: false }));
    const answer = await answerer.answer({
      question: 'how much tax do I owe?',
      passages: [tax, ...others],
      itemize: false,
    });
    expect(answer.citations[0]).toMatchObject({ passage: 1, quote: 'Owe £2,340, pay by 31 January.' });
    expect(new Set(answer.citations.map((c) => c.passage)).size).toBeLessThanOrEqual(2);
    // With answers asked for as a list, each such note is still an item.
    const listed = await answerer.answer({
      question: 'list what I have paid for',
      passages: [tax, ...others],
      itemize: true,
    });
    expect(new Set(listed.citations.map((c) => c.passage)).size).toBeGreaterThan(2);
  });

  it('a question of who is answered by the sentence naming someone, not the one naming the thing', async () => {
    const washer = note(
      1,
      'Washing machine leaking from the door seal. Repair man (Bob, 07700 900123) replaced the gasket, £85 including call out.',
    );
    expect(await firstQuote('who fixed the washing machine?', [washer])).toBe(
      'Repair man (Bob, 07700 900123) replaced the gasket, £85 including call out.',
    );
    expect(wanted('who fixed the washing machine?')).toBe('person');
    // "who ... and when" wants the time.
    expect(wanted("who's coming to fix the leak and when?")).toBe('time');
    // A name opening its sentence is one when it is no English word; a day or a month is no name.
    expect(HOLDS.person.test('Sarah is sorting the catering.')).toBe(true);
    expect(HOLDS.person.test('Team offsite moved to Tuesday 17th June.')).toBe(false);
    expect(HOLDS.person.test('Mrs Hughes at no. 9 took in our parcel.')).toBe(true);
    expect(HOLDS.person.test('Met Sarah at the station.')).toBe(true);
    expect(HOLDS.person.test('Done. Team lunch moved to Friday.')).toBe(false);
    expect(HOLDS.person.test('The plumber comes on Monday in March.')).toBe(false);
    // A title's full stop ends no sentence: "Brown" after "Dr." is a name; a new line opens a sentence.
    expect(HOLDS.person.test('Knee looked at by Dr. Brown.')).toBe(true);
    expect(HOLDS.person.test('Kitchen\nTeam lunch moved to Friday.')).toBe(false);
  });

  it('a question of a decision or a reason is answered by the sentence saying what was decided, and why', async () => {
    const mortgage = note(
      1,
      'Met with the bank about the mortgage: fixed 5 years at 4.2%, £1,340 a month. Decided to go with Nationwide instead of Barclays because of the lower fee.',
    );
    expect(await firstQuote('what did we decide about the mortgage?', [mortgage])).toBe(
      'Decided to go with Nationwide instead of Barclays because of the lower fee.',
    );
    expect(wanted('which bank did we choose?')).toBe('decision');
    // Asked in any form of the verb.
    expect(wanted('what did we end up deciding about a second car?')).toBe('decision');
    expect(wanted('which school are we choosing?')).toBe('decision');
    expect(wanted('what are they agreeing to?')).toBe('decision');
    expect(wanted('what did we settle on for the kitchen?')).toBe('decision');
    // Picking something up is no choice.
    expect(wanted('what did the kids pick up from school?')).not.toBe('decision');
    expect(wanted('why did we go with Nationwide?')).toBe('reason');
    // A decision asked with a time or an amount wants that.
    expect(wanted('when did we decide?')).toBe('time');
    expect(wanted('how much did we agree to pay?')).toBe('amount');
    expect(HOLDS.reason.test('Cancelled it because I never used it.')).toBe(true);
    expect(HOLDS.reason.test('Cancelled it on Monday.')).toBe(false);
  });

  it("quotes after the best sentence only evidence that supports the answer or shares the question's words", async () => {
    const dentist = note(
      1,
      'Dentist said I need a filling on the lower left molar. Appointment Wednesday 19 March at 10:30. NHS band 2, £73.20.',
      { supports: true },
    );
    const vet = note(2, 'Dog vet visit: ear infection. £68 including the drops.', { byMeaning: true });
    const answer = await answerer.answer({
      question: 'how much is the dentist going to charge?',
      passages: [dentist, vet],
      itemize: false,
    });
    expect(answer.reply).toMatch(/^From your library: NHS band 2, £73\.20\. \[1\]/);
    // The vet's amount may be cited as further evidence; it is never quoted as part of the answer.
    expect(answer.reply).not.toContain('£68');
  });

  it('stays in a short answer with the thing the question names, and leaves a note naming another thing out', async () => {
    const orion = note(1, 'Project Orion ships on Wednesday.', { supports: true });
    const zephyr = note(2, 'Project Zephyr ships on Monday.', { supports: true });
    const general = note(3, 'Every project ships only after the release review.', { supports: true });
    const answer = await answerer.answer({
      question: 'When does project Orion ship?',
      passages: [orion, zephyr, general],
      itemize: false,
    });
    expect(answer.reply).toContain('Project Orion ships on Wednesday. [1]');
    expect(answer.reply).not.toContain('Zephyr');
    expect(answer.reply).not.toMatch(/\[2\]/);
    // A note naming nothing else may be about it in general terms: it is still cited.
    expect(answer.reply).toMatch(/\[3\]/);
    // Among a conversation's turns a name says who speaks as often as what is spoken of: no note is left out.
    const turns = [
      note(1, '[8 May 2023] Caroline: Project Orion ships on Wednesday.', { supports: true }),
      note(2, '[8 May 2023] Melanie: Project Zephyr ships on Monday.', { supports: true }),
    ];
    const inConversation = await answerer.answer({
      question: 'When does project Orion ship?',
      passages: turns,
      itemize: false,
    });
    expect(inConversation.reply).toContain('Zephyr');
    // A list asks for every thing of its kind.
    const list = await answerer.answer({
      question: 'List when project Orion and the others ship',
      passages: [orion, zephyr],
      itemize: true,
    });
    expect(list.reply).toContain('Zephyr');
  });

  it('reads "what was wrong with ..." as a summary of the note, unless it also asks for an amount', async () => {
    expect(wanted('what was wrong with the car?')).toBe('summary');
    expect(wanted("what's the problem with the boiler")).toBe('summary');
    expect(wanted('what went wrong at the bank')).toBe('summary');
    expect(wanted('what is wrong with the roof and what will it cost')).toBe('amount');
    expect(wanted('what was the issue with the boiler?')).toBe('summary');
    expect(wanted('what was the problem at the dentist?')).toBe('summary');
    expect(wanted("what's the matter with the dog")).toBe('summary');
    expect(wanted('what was the issue date of my passport')).not.toBe('summary');
    expect(wanted('what is the problem set for week 3')).not.toBe('summary');
    const car = note(1, 'The car would not start this morning. The AA man said the battery was flat and replaced it.', {
      supports: true,
    });
    const answer = await answerer.answer({
      question: 'what was wrong with the car?',
      passages: [car, note(2, 'Rent goes up to £1,210 a month from April.', { byMeaning: true })],
      itemize: false,
    });
    // The cause, not only the sentence naming the car; and not the rent beside it.
    expect(answer.reply).toContain('the battery was flat');
    expect(answer.reply).not.toContain('[2]');
  });

  it('a summary quotes the note that holds the question whole, in order', async () => {
    const answer = await answerer.answer({
      question: 'summarise what happened with the boiler',
      passages: [boiler, note(2, 'The heron nests by the lake.')],
      itemize: false,
    });
    expect(answer.reply).toBe(
      'From your library: Boiler engineer came: the pressure valve was faulty, so he replaced it. [1] Labour £90, part £45. [1] Heating back on by lunchtime. [1]',
    );
  });

  it('"when" is answered by a date, not by a length of time; "how long" by the length', async () => {
    const sofa = note(
      1,
      'Decided to go with the grey corner sofa from DFS because it has a 10 year guarantee. Delivery on 20 November.',
      { title: 'Sofa decision', supports: true },
    );
    expect(await firstQuote('When is the sofa being delivered?', [sofa])).toBe('Delivery on 20 November.');
    expect(wanted('How long is the guarantee on the sofa?')).toBe('duration');
    expect(HOLDS.time.test('a 10 year guarantee')).toBe(false);
    expect(HOLDS.time.test('The parcel comes in 3 days.')).toBe(true);
    expect(HOLDS.duration.test('a 10-year guarantee')).toBe(true);
  });

  it('a follow-up asks what it asks itself: "who is it with?" after "how much will it cost?" wants the person', async () => {
    const dentist = note(
      1,
      'Dentist appointment with Dr. Patel on Tuesday 14 October at 3:30pm. Check-up and clean, costs £65.',
      {
        title: 'Dentist',
        supports: true,
      },
    );
    const answer = await answerer.answer({
      question: 'When is the dentist appointment?\nand how much will it cost?\nwho is it with?',
      followUp: 'who is it with?',
      passages: [dentist],
      itemize: false,
    });
    expect(answer.citations[0]!.quote).toContain('Dr. Patel');
    expect(wanted('what was it for?')).toBe('reason');
  });

  it("leaves out of a short answer a note lacking a thing the question asks about that the best note holds (the title's words count)", async () => {
    const vet = note(1, 'Took Biscuit the dog to the vet on Friday for his vaccinations. The vet bill was £58.', {
      title: 'Vet',
      supports: true,
    });
    // Admitted beside the answer (the gate's support is the vet's), as the search found them for the probe.
    const dentist = note(2, 'Check-up and clean at the dentist, costs £65.', { title: 'Dentist' });
    const gym = note(3, 'Gym membership is £34 per month.', { title: 'Gym' });
    const vetCost = await answerer.answer({
      question: 'What did the vet cost?',
      passages: [vet, dentist, gym],
      itemize: false,
    });
    expect(vetCost.reply).toBe('From your library: The vet bill was £58. [1]');
    // A note naming another thing asked about stays.
    const both = await answerer.answer({
      question: 'What did the vet and the dentist cost?',
      passages: [vet, dentist, gym],
      itemize: false,
    });
    expect(both.citations.map((c) => c.passage)).toEqual(expect.arrayContaining([1, 2]));
    expect(both.citations.map((c) => c.passage)).not.toContain(3);

    // The repair is named by its note's title only; the insurance holds "car" and an amount too.
    const repair = note(2, "Car wouldn't start Monday - flat battery. Total bill was £142 including fitting.", {
      title: 'Car repair',
      supports: true,
    });
    const insurance = note(1, 'Car insurance renewed with Admiral on 3 March for £612 a year.', {
      title: 'Insurance',
      supports: true,
    });
    const howMuch = await answerer.answer({
      question: 'How much was the car repair?',
      passages: [insurance, repair],
      itemize: false,
    });
    expect(howMuch.reply).toBe('From your library: Total bill was £142 including fitting. [2]');
  });

  it("reads each sentence with what its note is about: the words naming the note pick the note, the question's others the sentence", async () => {
    const flights = note(
      1,
      "Flights to Denver for Aunt Carol's 70th birthday. Outbound UA 1487 leaves SFO Friday June 13 at 7:05 am. Confirmation code QX7T2P.",
      { title: 'Denver trip flights', supports: true },
    );
    expect(await firstQuote("What's the confirmation number for the Denver flights?", [flights])).toBe(
      'Confirmation code QX7T2P.',
    );
    // "70th" is an age, not a day of the month: the sentence with the time answers "what time".
    expect(await firstQuote('What time does our flight to Denver take off?', [flights])).toBe(
      'Outbound UA 1487 leaves SFO Friday June 13 at 7:05 am.',
    );
    expect(HOLDS.time.test("Aunt Carol's 70th birthday")).toBe(false);
    expect(HOLDS.time.test('on the 14th')).toBe(true);
    // Untitled (its default title is its first line, which holds every sentence): the first sentence names the note.
    const text =
      'Oil change at Jiffy Lube on April 20, synthetic oil, $89.99 with a coupon. Mileage was 48,200. Next oil change due at 53,200 miles or in six months.';
    const oil = note(1, text, { title: text, supports: true });
    expect(await firstQuote('At what mileage is the next oil change due?', [oil])).toBe(
      'Next oil change due at 53,200 miles or in six months.',
    );
  });

  it('a follow-up going on about one thing keeps a short answer to the note it finds best', async () => {
    const derm = note(
      1,
      'Dermatologist appointment with Dr. Patel on Thursday at 2:15 pm. Bring the insurance card and a list of the moles that changed.',
      {
        supports: true,
      },
    );
    const club = note(2, "Book club at Linda's on Friday. I'm bringing a salad.", { supports: true });
    const alone = await answerer.answer({ question: 'What should I bring?', passages: [derm, club], itemize: false });
    expect(alone.citations.map((c) => c.passage)).toContain(2);
    const goingOn = await answerer.answer({
      question: 'What should I bring?',
      passages: [derm, club],
      itemize: false,
      goesOn: true,
    });
    expect(goingOn.reply).toBe('From your library: Bring the insurance card and a list of the moles that changed. [1]');
  });

  it('quotes no line that repeats a sentence already quoted (the line under a matching heading holds it)', async () => {
    const outage: GroundingPassage = {
      number: 1,
      title: 'Internet outage',
      lineStart: 1,
      lines: [
        'Internet outage',
        "Comcast was down all day on April 2. Called support, they gave a $20 credit on the next bill. Ticket number CX-88421. The tech said the node in our neighborhood was overloaded and they'll upgrade it next month.",
      ],
      supports: true,
    };
    const answer = await answerer.answer({
      question: 'What credit did Comcast give us for the outage?',
      passages: [outage],
      itemize: false,
    });
    expect(answer.reply?.match(/\$20 credit/g)).toHaveLength(1);
  });

  it('never lists under "Also relevant" a passage the answer already quotes', async () => {
    const prices: GroundingPassage = {
      number: 1,
      title: 'Grocery prices at Safeway this week',
      lineStart: 1,
      lines: [
        'Grocery prices at Safeway this week',
        'Eggs, a dozen large: $4.29',
        'Whole milk, gallon: $3.99',
        'Chicken thighs: $2.49 a pound',
        'Bananas: 69 cents a pound',
      ],
      supports: true,
    };
    const answer = await answerer.answer({
      question: 'How much are eggs at Safeway?',
      passages: [prices],
      itemize: false,
    });
    expect(answer.reply).toContain('[1]');
    expect(answer.reply).not.toMatch(/Also relevant: .*\[1\]/);
  });
});
