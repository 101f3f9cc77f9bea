import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTIVE, ExtractiveAnswerer } from '../../lambdas/adapters/local/extractive-answerer.js';
import { categoryOf, wantsItems } from '../../lambdas/core/chat/intent.js';
import { DEFAULT_ADMIT, DEFAULT_SUPPORT, isSupported, type SupportSignals } from '../../lambdas/core/chat/relevance.js';
import type { GroundingPassage } from '../../lambdas/core/ports.js';

/** A request for the things of a kind (core/chat/category-requests.ts). */
describe('requests for the things of a kind', () => {
  it('knows a kind asked for in many wordings, with no subject of its own', () => {
    for (const request of [
      'list the appointments I have coming up',
      'what appointments have I got this week',
      'show me my upcoming bookings',
      'make a table of my monthly subscriptions',
      'what are the regular payments going out',
      'list the bills I paid recently',
      'put my household expenses in a table',
      'list everything I have spent money on',
      'what have I got booked in for May',
      'what family celebrations have we got coming up',
    ]) {
      const category = categoryOf(request);
      expect(category, request).not.toBeNull();
      expect(category!.subject.size, request).toBe(0);
      expect(wantsItems(request), request).toBe(true);
    }
  });

  it('keeps the words of a subject named beside the kind, at most two', () => {
    expect([...categoryOf('put the fence quotes in a table')!.subject]).toEqual(['fenc']);
    expect([...categoryOf('list the vet bills')!.subject]).toEqual(['vet']);
    expect(categoryOf('make a table of the prices of the holiday cottages in Cornwall')).toBeNull();
  });

  it('is no such request when the question has its own subject, asks for one thing, or names no kind', () => {
    for (const question of [
      'when is my appointment', // one appointment: a question like any other
      'how much did I pay',
      'what did the plumber charge',
      'make a chart of my running times',
      'list the films we watched this month',
      'summarise the meeting with the architect and the builder about the loft',
      'what is the capital of Australia',
      'list the countries I visited last year', // "visited" names no kind: "visits" do
      // Words whose stem is a kind's but which are not one: books are not bookings, directions not direct debits.
      'what books has Melanie read',
      'list my books',
      'list the directions',
      // Who, where, whether and how many ask about the things, not for them.
      'who pays the electricity bills',
      'who visits Grandma on Sundays',
      'did I pay the bills',
      'where did I put the bills',
      'how many appointments do I have',
    ])
      expect(categoryOf(question), question).toBeNull();
    expect(categoryOf('list my direct debits')?.subject.size).toBe(0);
    // A number or "since" narrows; it is no subject a note must hold.
    expect(categoryOf('list the bills over £100 since March')?.subject.size).toBe(0);
  });

  it('a day or a weekend the request narrows to must be in the note, however the note shortens it', () => {
    const thursday = categoryOf('what appointments have I got on Thursday')!;
    for (const text of ['Parents meeting Thursday 6pm.', 'Swimming Thursdays at 5pm.', 'Dentist Thurs 14th, 9am.'])
      expect(thursday.isStatedIn(text), text).toBe(true);
    expect(thursday.isStatedIn('Dentist Tuesday 14th, 9am.')).toBe(false);
    const monday = categoryOf('list my appointments on Monday')!;
    expect(monday.isStatedIn('GP Mon 9am.')).toBe(true);
    expect(monday.isStatedIn('Rent due this month at 9am.')).toBe(false);
    const weekend = categoryOf('list the events this weekend')!;
    expect(weekend.isStatedIn("Ben's party Sat 2pm.")).toBe(true);
    expect(weekend.isStatedIn('Piano Tues 5:15pm.')).toBe(false);
  });

  it('a month the request narrows to must be in the note; May only beside a day', () => {
    const june = categoryOf('which events and appointments do the family and I have in June')!;
    expect(june.subject.size).toBe(0);
    expect(june.isStatedIn('Pottery course Tue 4 June, 7pm.')).toBe(true);
    expect(june.isStatedIn('Dentist Tue 14 May 9:40am.')).toBe(false);
    const may = categoryOf('what bookings do I have in May')!;
    expect(may.isStatedIn('Hairdresser Friday 14 May at 11am.')).toBe(true);
    expect(may.isStatedIn('She may refer me, on Friday at 10am.')).toBe(false);
  });

  it('a note of a kind of events states a day, a date or a clock time, not a duration, a price, a month alone or "may"', () => {
    const events = categoryOf('list my appointments')!;
    for (const text of [
      'Optician on Wednesday 9 July at 2:15pm.',
      'Booked the MOT for the 14th at 8.30.',
      'Swimming Saturdays 9am.',
      'Vaccination on 3 May.',
      'Call back tomorrow.',
    ])
      expect(events.isStatedIn(text), text).toBe(true);
    for (const text of [
      'Bake for 45 minutes.',
      'Spotify £17.99 a month.',
      'Fixed at 4.25% for two years.',
      '2.25kg of flour.',
      'Flat on the 4th floor.',
      'Gym membership renews in January.', // a month without its day names no appointment
      'Order seeds by mid-February.',
      'She may refer me for physio.',
    ])
      expect(events.isStatedIn(text), text).toBe(false);
  });

  it('a note of a kind of payment states an amount; of a recurring one, an amount per period', () => {
    const bills = categoryOf('list the bills I paid')!;
    expect(bills.isStatedIn('Plumber charged £95 including parts.')).toBe(true);
    expect(bills.isStatedIn('Plumber fixed the tap.')).toBe(false);
    const subscriptions = categoryOf('make a table of my subscriptions')!;
    expect(subscriptions.isStatedIn('Gym membership is £34 per month.')).toBe(true);
    expect(subscriptions.isStatedIn('Garden waste collection is £55 for the year.')).toBe(true);
    expect(subscriptions.isStatedIn('Spotify £17.99 monthly.')).toBe(true);
    expect(subscriptions.isStatedIn('Plumber charged £95.')).toBe(false);
    // A payment asked for by its period is a recurring one.
    const eachMonth = categoryOf('make a table of what I pay each month')!;
    expect(eachMonth.isStatedIn('Council tax £156 a month.')).toBe(true);
    expect(eachMonth.isStatedIn('Bought a kettle for £39.')).toBe(false);
  });
});

describe('the gate on a request for the things of a kind', () => {
  const signals = (cosine: number, categoryLead?: number): SupportSignals => ({
    coverage: 0,
    matchedTerms: 0,
    questionTerms: 1,
    cosine,
    ...(categoryLead === undefined ? {} : { categoryLead }),
  });

  it('supports a passage of the kind near enough in meaning and close to the nearest such passage', () => {
    expect(isSupported(signals(0.3, 0), DEFAULT_SUPPORT)).toBe(true);
    expect(isSupported(signals(0.3, -0.1), DEFAULT_SUPPORT)).toBe(true);
    // The same cosine without the kind, too far below the nearest of the kind, or too far in meaning: no.
    expect(isSupported(signals(0.3), DEFAULT_SUPPORT)).toBe(false);
    expect(isSupported(signals(0.3, -0.2), DEFAULT_SUPPORT)).toBe(false);
    expect(isSupported(signals(0.15, 0), DEFAULT_SUPPORT)).toBe(false);
  });

  it('once one supports, admits the further ones of the kind more widely', () => {
    expect(isSupported(signals(0.15, -0.2), DEFAULT_ADMIT)).toBe(true);
    expect(isSupported(signals(0.15), DEFAULT_ADMIT)).toBe(false);
  });
});

describe('ExtractiveAnswerer on a request for the things of a kind', () => {
  const note = (number: number, ...lines: string[]): GroundingPassage => ({
    number,
    title: null,
    lineStart: 1,
    lines,
    byMeaning: true,
    supports: true,
  });

  it('itemizes the sentences of each note that state a time, in search order, leaving out a note that states none', async () => {
    const answer = await new ExtractiveAnswerer().answer({
      question: 'what appointments have I got',
      passages: [
        note(1, 'Optician on Wednesday 9 July at 2:15pm. Bring the old glasses.'),
        note(2, 'Plumber fixed the kitchen tap.'),
        note(3, 'Hairdresser booked with Kim. Saturday 11am, £45.'),
      ],
      itemize: true,
    });
    expect(answer.citations.map((c) => [c.passage, c.quote])).toEqual([
      [1, 'Optician on Wednesday 9 July at 2:15pm.'],
      [3, 'Saturday 11am, £45.'],
    ]);
    expect(answer.reply).toBe(
      'From your library:\n- Optician on Wednesday 9 July at 2:15pm. [1]\n- Saturday 11am, £45. [3]',
    );
  });

  it('itemizes each amount of a note that lists several bills, and at most maxItemized in all', async () => {
    const bills = note(1, 'Electricity £80 for the quarter.', 'Water £31.', 'Council tax £142.');
    const answer = await new ExtractiveAnswerer().answer({
      question: 'list the bills I paid',
      passages: [bills, ...Array.from({ length: 10 }, (_, i) => note(i + 2, `Parking fine £${60 + i}.`))],
      itemize: true,
    });
    expect(answer.citations.slice(0, 3).map((c) => c.quote)).toEqual([
      'Electricity £80 for the quarter.',
      'Water £31.',
      'Council tax £142.',
    ]);
    expect(answer.citations).toHaveLength(DEFAULT_EXTRACTIVE.maxItemized);
  });
});

describe('requests for the things of a kind: hostile input', () => {
  it('reads a question of the longest allowed length, of one word or of many spaces, in linear time', () => {
    const started = performance.now();
    for (const question of [
      // Each letter of a long word began a scan to its end under the plural pattern first used: ~40 ms a question, 0.5 s in all.
      ...[...'abcdefghijkl'].map((letter) => `my bills ${letter.repeat(3990)}`),
      `list ${'a'.repeat(3990)}`,
      `list the bills ${' '.repeat(3980)}x`,
      `${'8 '.repeat(2000)}`,
    ])
      categoryOf(question);
    expect(performance.now() - started).toBeLessThan(150);
  });

  it('reads long passages of digits, separators and spaces in linear time', () => {
    const kinds = ['list my appointments', 'list the bills', 'list my subscriptions'].map((q) => categoryOf(q)!);
    const started = performance.now();
    for (const passage of ['1,'.repeat(5000), '1.'.repeat(5000), '12:'.repeat(3000), `a${' '.repeat(10_000)}x`])
      for (const kind of kinds) kind.isStatedIn(passage);
    // An amount of money read from each digit of a run of "1,2,3,..." to its end took ~0.1 s a passage.
    expect(performance.now() - started).toBeLessThan(150);
  });
});
