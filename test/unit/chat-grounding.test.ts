import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withAnswerKinds } from '../../lambdas/core/chat/answer-kinds.js';
import { judgeReply, NOT_IN_LIBRARY, systemPrompt, userPrompt } from '../../lambdas/core/chat/prompt.js';
import {
  DEFAULT_ADMIT,
  DEFAULT_NOISE,
  DEFAULT_SUPPORT,
  isSupported,
  termCoverage,
  termWeights,
} from '../../lambdas/core/chat/relevance.js';
import {
  ChatRetriever,
  DEFAULT_RETRIEVAL,
  type RetrievedPassage,
  selectGrounding,
} from '../../lambdas/core/chat/retrieval.js';
import { buildSources, citedFacts, type GroundedPassage } from '../../lambdas/core/chat/sources.js';
import {
  namesASubject,
  namesJoined,
  personsAsked,
  properNameTerms,
  subjectsNamed,
  subjectTerms,
} from '../../lambdas/core/chat/subject-words.js';
import { contentTerms, termRarity, termSet } from '../../lambdas/core/chat/terms.js';
import { firstNamesModule } from '../../scripts/first-names.js';
import { nounKindsModule } from '../../scripts/noun-kinds.js';
import { coreHarness } from '../support/core-harness.js';

describe('content terms', () => {
  it('keeps the words a question is about, stemmed, without function or asking words', () => {
    expect(contentTerms('Can you tell me which risks the Falcon projects have?')).toEqual([
      'risk',
      'falcon',
      'project',
    ]);
    expect(contentTerms('Make a table of 2026 revenue')).toEqual(['2026', 'revenu']);
    expect(contentTerms('What did we decide about hiring?')).toEqual(['hire']);
    // Words saying how to answer, or naming only the answer's kind, are about nothing: the car is what is asked about.
    expect(contentTerms('give me a quick summary of the car trouble')).toEqual(['car']);
    expect(contentTerms("what's the latest update on the boiler problem")).toEqual(contentTerms('latest boiler'));
  });

  it('meets a word in its irregular forms, and drops the verbs a question is asked with', () => {
    // Porter stemming alone leaves "paid" apart from "pay", "sold" from "selling", "children" from "child".
    expect(contentTerms('how much did I pay')).toEqual(contentTerms('paid'));
    expect(contentTerms('what do I still need to do after selling the car')).toEqual(contentTerms('sold car'));
    expect(contentTerms('who is looking after the children')).toEqual(contentTerms('child'));
    expect(contentTerms("what's going on with the fridge")).toEqual(['fridg']);
    expect(contentTerms('when is someone coming to look at the freezer')).toEqual(['freezer']);
    // Choosing asks for a decision, as deciding does: "which pram did we choose" is about the pram.
    expect(contentTerms('which pram did we choose')).toEqual(['pram']);
    expect(contentTerms('what colour was chosen for the hallway')).toEqual(contentTerms('colour hallway'));
    // In every form: a note's "Decided" drops the word, so a question's "deciding" must too, or no note could hold it.
    expect(contentTerms('what did we end up deciding about the second car')).toEqual(contentTerms('second car'));
    expect(contentTerms('Decided no second car.')).toEqual(contentTerms('second car'));
    expect(contentTerms('who are we choosing, and what is he agreeing to')).toEqual([]);
    expect(contentTerms('summarising the school trip')).toEqual(contentTerms('school trip'));
    // Only the verbs: a word that merely opens the same way is a word of its own.
    expect(contentTerms('the bank teller')).toEqual(['bank', 'teller']);
    expect(contentTerms('deciduous trees')).toEqual(['decidu', 'tree']);
  });

  it('reads everything and nothing as asking words, as it reads anything and something', () => {
    // "everything" is no word a note holds: kept, the July notes would hold only half of the question.
    expect(contentTerms("List everything that's on in July")).toEqual(contentTerms('July'));
    expect(contentTerms('is there nothing booked for the weekend')).toEqual(contentTerms('booked weekend'));
    // People are a word a conversation holds: "I got everyone a controller".
    expect(contentTerms('what did Nate get for everyone')).toEqual(contentTerms('Nate everyone'));
  });

  it('reads "end up" as how something turned out, and "end" elsewhere as the word it is', () => {
    expect(contentTerms('what did we end up paying for the fence')).toEqual(contentTerms('paid fence'));
    expect(contentTerms('Ended up with the blue sofa.')).toEqual(contentTerms('blue sofa'));
    expect(contentTerms('due at the end of the month')).toEqual(['due', 'end', 'month']);
  });

  it('reads months and weekdays as notes shorten them, and leaves the words they would clash with', () => {
    expect(contentTerms('Hydro One Jan bill, due Tue Oct 15 or Thurs')).toEqual(
      contentTerms('Hydro One January bill, due Tuesday October 15 or Thursday'),
    );
    // "APR" is a loan's rate as often as April.
    expect(contentTerms('the APR on the loan')).not.toEqual(contentTerms('the April on the loan'));
    expect(contentTerms('Sept Oct Nov Dec Wed Fri')).toEqual(
      contentTerms('September October November December Wednesday Friday'),
    );
    // "sat", "sun" and "mar" are words of their own.
    expect(contentTerms('we sat in the sun')).toEqual(contentTerms('we sit in the sun'));
    expect(contentTerms('Mar')).toEqual(['mar']);
  });

  it('drops the words that ask for a chart only where they ask for one, and keeps them as the everyday nouns they are elsewhere', () => {
    expect(contentTerms('Draw a bar chart of the quarterly revenue')).toEqual(['quarterli', 'revenu']);
    expect(contentTerms('a pie chart of spending')).toEqual(['spend']);
    expect(contentTerms('plot the yearly sales')).toEqual(['yearli', 'sale']);
    expect(contentTerms('can you please plot my weight over time')).toEqual(['weight', 'time']);
    expect(contentTerms('where is my vegetable plot')).toEqual(['veget', 'plot']);
    expect(contentTerms('what was the plot of the novel')).toEqual(['plot', 'novel']);
    expect(contentTerms('the apple pie we had at the bar')).toEqual(['appl', 'pie', 'bar']);
    // The note a question about the plot asks for holds it too.
    expect(termSet('Got an allotment at last! Plot 27B at Hilltop Lane.').has('plot')).toBe(true);
  });

  it('answers "what did we decide about X" from the note that says what was agreed about X', async () => {
    const { services } = coreHarness();
    const ref = { tenantId: 't', endUserId: null };
    await services.capture.capture(ref, {
      text: 'Meeting notes 3 Nov: we agreed to hire two backend engineers in Q1.',
    });
    await services.capture.capture(ref, { text: 'Grocery list: oat milk, sourdough bread, three lemons.' });
    const answer = await services.chat.chat(ref, 'What did we decide about hiring?');
    expect(answer.sources.map((s) => s.snippet)).toEqual([
      '1: Meeting notes 3 Nov: we agreed to hire two backend engineers in Q1.',
    ]);
  });
});

describe('the support gate', () => {
  const pool = [
    termSet('water tank water supply'),
    termSet('water quality'),
    termSet('winter water'),
    termSet('rainfall water'),
  ];
  const question = termSet('How often should I water a cactus in winter?');

  it('weights a word by how rare it is among the passages found, so a common word proves little', () => {
    const weights = termWeights(question, pool);
    expect(weights.get('cactu')!).toBeGreaterThan(weights.get('winter')!);
    expect(weights.get('winter')!).toBeGreaterThan(weights.get('water')!);
    const { coverage, matched } = termCoverage(question, pool[2]!, weights);
    expect(matched).toBe(2);
    expect(coverage).toBeLessThan(0.5);
    expect(isSupported({ coverage, matchedTerms: matched, questionTerms: question.size, cosine: 0.3 })).toBe(false);
  });

  it('weights a word everybody says less than a rare one, so a passage missing only common words still answers', () => {
    const asked = termSet('where did I leave the spare key');
    const note = termSet('Spare key is under the blue pot, food in the utility room.');
    const others = [note, termSet('The blue pot is cracked.'), termSet('Gutter cleaning done, £80.')];
    const rarity = termRarity('where did I leave the spare key');
    expect(rarity.get('leav')!).toBeLessThan(rarity.get('spare')!);
    const plain = termCoverage(asked, note, termWeights(asked, others));
    const weighted = termCoverage(asked, note, termWeights(asked, others, rarity), rarity);
    expect(weighted.matched).toBe(2);
    expect(weighted.coverage).toBeGreaterThan(plain.coverage);
    const signals = { coverage: plain.coverage, matchedTerms: 2, questionTerms: 3, cosine: 0.1 };
    expect(isSupported(signals)).toBe(false);
    expect(weighted.missedRarity).toBe(rarity.get('leav'));
    expect(isSupported({ ...signals, tellingCoverage: weighted.coverage, missedRarity: weighted.missedRarity })).toBe(
      true,
    );
    // The rare word missing ("dentist" over a note about a nurse and a blood test) is no answer.
    const dentist = termSet('when is the dentist appointment');
    const bloods = termSet('Nurse took bloods. Ring the surgery for an appointment after 2pm.');
    const missed = termCoverage(
      dentist,
      bloods,
      termWeights(dentist, [bloods], termRarity('when is the dentist appointment')),
    );
    expect(missed.matched).toBe(1);
    expect(missed.missedRarity).toBeGreaterThan(DEFAULT_SUPPORT.maxMissedRarity);
    expect(
      isSupported({
        coverage: missed.coverage,
        tellingCoverage: missed.coverage,
        missedRarity: missed.missedRarity,
        matchedTerms: 1,
        questionTerms: 2,
        cosine: 0.29,
      }),
    ).toBe(false);
  });

  it('counts "cost" held by a passage that states an amount of money', () => {
    const trip = 'Booked the trip to Edinburgh: train on 12 May at 8:30, two nights at the Balmoral. Total £486.';
    const terms = withAnswerKinds(termSet(trip), trip);
    expect(terms.has(termSet('cost').values().next().value!)).toBe(true);
    expect(terms.has('time')).toBe(false);
    // So does what an amount answers besides a cost: "how much will I save", "how much do I owe".
    for (const word of ['saving', 'owe', 'earn', 'worth', 'money'])
      expect(terms.has([...termSet(word)][0]!), word).toBe(true);
    // A passage naming someone or something answers "which company", "what firm"; one naming nobody does not.
    const patio = 'Quotes for the patio came in. Picked PaveRight, they can start 10 March.';
    expect(withAnswerKinds(termSet(patio), patio).has([...termSet('company')][0]!)).toBe(true);
    const nobody = 'quotes for the patio came in; picked the cheapest, they can start in march.';
    expect(withAnswerKinds(termSet(nobody), nobody).has([...termSet('company')][0]!)).toBe(false);
    const asked = termSet('how much did the trip cost');
    const others = [terms, withAnswerKinds(termSet('Gym membership cancelled.'), 'Gym membership cancelled.')];
    const rarity = termRarity('how much did the trip cost');
    const held = termCoverage(asked, terms, termWeights(asked, others, rarity), rarity);
    expect(held).toMatchObject({ matched: 2, missedRarity: 0 });
    // A percentage is not money, and a passage without the subject still misses it.
    const study = '12% of patients improved.';
    expect(withAnswerKinds(termSet(study), study).has('cost')).toBe(false);
    const plumber = termSet('how much did the plumber charge');
    const missed = termCoverage(
      plumber,
      terms,
      termWeights(plumber, others, termRarity('how much did the plumber charge')),
    );
    expect(missed.matched).toBe(1);
    expect(isSupported({ coverage: missed.coverage, matchedTerms: 1, questionTerms: 2, cosine: 0.2 })).toBe(false);
  });

  /** A library of these notes, and the gate's signals on the passage opening with `opening` for a question. */
  async function signalsOver(notes: readonly string[]) {
    const { services } = coreHarness();
    const ref = { tenantId: 't', endUserId: null };
    for (const text of notes) await services.capture.capture(ref, { text });
    const retriever = new ChatRetriever(services.search);
    return async (question: string, opening: string) =>
      (await retriever.candidates(ref, question)).candidates.find((c) => c.passage.text.startsWith(opening))!.signals;
  }

  it('counts an amount of money as "cost" only where no rare word may be missed', async () => {
    const hotelSignals = await signalsOver([
      'Hotel in Lisbon: Casa Alfama, 3 nights, €420 in total.',
      'School trip to the zoo on Friday: 15 pounds, packed lunch.',
    ]);
    const signalsOf = (question: string) => hotelSignals(question, 'Hotel');
    // Asked about this hotel: "hotel" and, by its price, "cost" are both held.
    const lisbon = await signalsOf('what did the hotel in Lisbon cost');
    expect(lisbon).toMatchObject({ tellingCoverage: 1, missedRarity: 0 });
    // Asked about another: the rules that count words see "hotel" alone, and the rarity rule sees "Porto" missed.
    const porto = await signalsOf('what did the hotel in Porto cost');
    expect(porto.matchedTerms).toBe(1);
    expect(porto.missedRarity).toBe(1);
    expect(isSupported({ ...porto, cosine: null, cosineLead: 0 })).toBe(false);
  });

  it('reads the words of a question that name things: its nouns and names, not the verbs and adjectives around them', () => {
    expect(subjectTerms('which sofa did we pick')).toEqual(termSet('sofa'));
    expect(subjectTerms('what was wrong with the car')).toEqual(termSet('car'));
    expect(subjectTerms("what's my sister's phone number")).toEqual(termSet('sister phone number'));
    // A word the lexicon lacks is a name, a brand or a rare word: it names a thing.
    expect(subjectTerms('when do we fly to Lisbon with easyJet')).toEqual(termSet('Lisbon easyJet'));
    // Words an object's prototype has are words like any other ("constructor" is a noun; "valueOf" no word it knows).
    expect(subjectTerms('what did the constructor say about valueOf and hasOwnProperty')).toEqual(
      termSet('constructor valueOf hasOwnProperty'),
    );
    expect(subjectTerms('what did we decide')).toEqual(new Set());
  });

  it('passes a note holding every word of the question that names a thing, when it misses only words everybody says', async () => {
    const signalsOf = await signalsOver([
      'Decided with Tom to go with the grey sofa from DFS rather than the green one, delivery in 8 weeks.',
      'Insurer helpline: phone 0800 123 456, policy number HX-2231.',
      'Gutters cleared on Saturday, £80 cash.',
    ]);
    // "pick" is missed, a verb everybody says; "sofa" is held.
    const sofa = await signalsOf('which sofa did we pick', 'Decided');
    expect(sofa).toMatchObject({ matchedTerms: 1, missesSubject: false });
    expect(sofa.missedRarity).toBeLessThanOrEqual(DEFAULT_SUPPORT.maxMissedRarity);
    expect(isSupported({ ...sofa, cosine: null, cosineLead: -1 })).toBe(true);
    expect(isSupported({ ...sofa, cosine: null, cosineLead: -1 }, { ...DEFAULT_SUPPORT, subjectHeld: false })).toBe(
      false,
    );
    // "sister" is a noun the note does not hold: the phone number there is somebody else's.
    const sister = await signalsOf("what's my sister's phone number", 'Insurer');
    expect(sister).toMatchObject({ matchedTerms: 2, missesSubject: true });
    expect(isSupported({ ...sister, cosine: null, cosineLead: -1 })).toBe(false);
    // A question naming no thing leaves the signal out: the rule needs a subject to hold.
    expect((await signalsOf('what did we decide', 'Decided')).missesSubject).toBeUndefined();
  });

  it('is the list of first names the generator writes: first-names.ts is generated, not edited', () => {
    const checkedIn = readFileSync(new URL('../../lambdas/core/chat/first-names.ts', import.meta.url), 'utf8');
    expect(checkedIn).toBe(firstNamesModule());
  });

  it("is the table WordNet gives with today's terms: noun-kinds.ts is generated, not edited", () => {
    // Generated with the chat's own terms (terms.ts), so a change to them (a new asking word) asks for it again.
    const checkedIn = readFileSync(new URL('../../lambdas/core/chat/noun-kinds.ts', import.meta.url), 'utf8');
    expect(checkedIn).toBe(nounKindsModule());
  });

  it('tells a note naming what a question asks about, in its word, another word for it or a kind of it, from one about something else', () => {
    const names = (question: string, note: string) => namesASubject(subjectTerms(question), termSet(note), note);
    expect(names('how much is the council tax', 'Council tax band C, £1,732 a year.')).toBe(true);
    // Another word for the same thing, or a kind of it (WordNet, noun-kinds.ts).
    expect(names('when can I pick up my bicycle', 'Bike service done, ready Thursday after 4.')).toBe(true);
    expect(names('when do I see the doctor', 'GP appointment on Friday at 9:20 about the knee.')).toBe(true);
    expect(names('what did I do with the plants', 'Repotted the monstera and the fern.')).toBe(true);
    expect(names('what present did I get for my father', "Idea for Dad's birthday: the Lego set.")).toBe(true);
    expect(names('how much was the repair to the washer', 'Washing machine fixed, £95.')).toBe(true);
    expect(names('how much was the new washer', 'New machine for the kitchen, £95.')).toBe(false);
    // A word joined into a name by its capitals.
    expect(names('why did I quit the gym', 'Cancelled the PureGym membership, £29.99 a month.')).toBe(true);
    expect(names('what did I get for the car', 'Sold the Fiesta to WeBuyAnyCar for £2,150.')).toBe(true);
    // About the same sort of thing, not the thing asked about; a time or an amount names no subject.
    expect(names('how much is the council tax', 'Landlord wrote: rent going up from £900 to £960 a month.')).toBe(
      false,
    );
    expect(names('how much is the council tax each month', 'Landlord wrote: rent is £960 a month.')).toBe(false);
    expect(names('what time is it', 'Landlord wrote: rent is £960 a month.')).toBe(true);
    expect(names('when is my eye test', 'Haircut with Jo next Wednesday at 5:30pm.')).toBe(false);
    expect(names('how much did the new sofa cost', 'Landlord wrote: rent going up from £900 to £960 a month.')).toBe(
      false,
    );
    // A kind of the thing is not the thing's kind: a note about a car does not name "Golf" asked about.
    expect(names('is the Golf insured', 'Car insurance renewed with Aviva, £412.')).toBe(false);
    // Letters inside a word are no word: "card" does not name a car.
    expect(names('where is the car', 'Birthday card for Sam on the shelf.')).toBe(false);
  });

  it('counts a subject a note names in other words as held, by the main senses of its noun only', async () => {
    const named = (question: string, note: string) =>
      [...subjectsNamed(subjectTerms(question), termSet(note), note, 'main', termSet(question))].sort();
    // A lunch is a meal; an invoice is a bill.
    expect(named("where are we going for Mum's birthday meal", "Mum's 70th - lunch at The Plough, Sun 1pm.")).toEqual(
      [...termSet('meal mum')].sort(),
    );
    expect(named('how much is the phone bill', 'Invoice from Vodafone: £24.50.')).toEqual([...termSet('bill')]);
    // A beak is a bill too, in a sense nobody means when asking what a bill costs.
    expect(named('how much is the phone bill', 'The heron caught a fish in its beak.')).toEqual([]);
    expect(namesASubject(subjectTerms('how much is the phone bill'), termSet('its beak'), 'its beak')).toBe(true);
    // "The blue" is the sky, but not in a question that says "blue" itself.
    expect(named('why is the sky blue', 'Cryptochromes are blue light photoreceptors.')).toEqual([]);

    // Counted as held, the subject no longer weighs as missed: the note is about what is asked, in its own words.
    const signalsOf = await signalsOver([
      'Invoice from Vodafone: £24.50 a month, paid by direct debit.',
      'Vodafone shop on the high street closes at 5pm on Sundays.',
    ]);
    const invoice = await signalsOf('how much is the Vodafone bill', 'Invoice');
    expect(invoice).toMatchObject({ missesSubject: false, missedRarity: 0 });
    expect(isSupported({ ...invoice, cosine: null })).toBe(true);
    const shop = await signalsOf('how much is the Vodafone bill', 'Vodafone shop');
    expect(shop.missesSubject).toBe(true);
    expect(isSupported({ ...shop, cosine: null })).toBe(false);
  });

  it('reads how rare the rarest thing a passage misses is, named in other words or not', async () => {
    const signalsOf = await signalsOver([
      'Eurostar to Paris: Fri 14 Feb, 07:01 from St Pancras, £156 return for two.',
      'Invoice from Vodafone: £24.50 a month, paid by direct debit.',
    ]);
    // "taxi" is nowhere in the Eurostar note; "St Pancras" is.
    const taxi = await signalsOf('how much was the taxi to St Pancras', 'Eurostar');
    expect(taxi.missedSubjectRarity).toBeGreaterThan(DEFAULT_SUPPORT.maxMissedRarity);
    expect(isSupported({ ...taxi, cosine: 0.45, cosineLead: 0 })).toBe(false);
    // A bill named as an invoice is not missed.
    expect((await signalsOf('how much is the Vodafone bill', 'Invoice')).missedSubjectRarity).toBe(0);
  });

  it('holds back a note standing out in meaning that lacks a name the question asks about and another note holds', async () => {
    const signalsOf = await signalsOver([
      'Maya dentist appt Thurs 9 May at 3:45pm with Dr Patel, $40 copay.',
      "Liam's soccer practice Tuesdays and Thursdays 5:30pm at Riverside Park.",
    ]);
    const lead = { cosine: 0.46, cosineLead: 0.11 };
    const liam = await signalsOf("how much did Liam's dentist visit cost", 'Maya');
    expect(liam.missesName).toBe(true);
    expect(isSupported({ ...liam, ...lead })).toBe(false);
    const maya = await signalsOf("how much did Maya's dentist visit cost", 'Maya');
    expect(maya.missesName).toBe(false);
    expect(isSupported({ ...maya, ...lead })).toBe(true);
    // A name no note holds proves nothing about this one (the question may name it as its writer does not).
    expect((await signalsOf("how much did Zoe's dentist visit cost", 'Maya')).missesName).toBe(false);
    // A question naming nobody leaves the signal false.
    expect((await signalsOf('how much did the dentist visit cost', 'Maya')).missesName).toBe(false);
  });

  it("reads a question's proper names: capitalised mid-sentence, or as the passages write them", () => {
    const names = (question: string, passages: readonly string[] = []) => [...properNameTerms(question, passages)];
    expect(names("how much are Ava's piano lessons")).toEqual([...termSet('ava')]);
    expect(names('when is the check-up for Oliver with Dr Chen').sort()).toEqual([...termSet('oliver chen')].sort());
    // Opening a sentence, a capital says nothing: a claim's first word is no name.
    expect(names('Drosophila larvae sense light. Mutants do not')).toEqual([]);
    // A word the dictionary knows is no name here, and a month or a weekday says when, not who.
    expect(names('when is Grace coming on Monday in November')).toEqual([]);
    // Written without capitals: the words no dictionary knows that the passages write with one.
    expect(names("how much are ava's piano lessons", ['Ava starts swimming on Sat 3 May.'])).toEqual([
      ...termSet('ava'),
    ]);
    expect(names('how much is the mtor assay', ['mTOR inhibition in mice.'])).toEqual([]);
    // Only the first word capitalised, as phones write it: still a question written without capitals for names.
    expect(names("How much are ava's piano lessons", ['Ava starts swimming on Sat 3 May.'])).toEqual([
      ...termSet('ava'),
    ]);
    // A word the passages also write in lower case is no name.
    expect(names('does drosophila sense light', ['Drosophila larvae.', 'In the drosophila eye.'])).toEqual([]);
    // A title's full stop ends no sentence; a name of joined parts is one name; "Julie" is no July.
    expect(names('what did Dr. Chen say about my knee')).toEqual([...termSet('chen')]);
    expect(names('when is the McKenzie party')).toEqual([...termSet('mckenzie')]);
    expect(names("when is Julie's party")).toEqual([...termSet('julie')]);
  });

  it('holds back the word rules from a note about somebody else than the person the question names', async () => {
    const signalsOf = await signalsOver([
      "Oliver's piano lesson moved to Wednesdays 4:15pm with Mrs Grant, $35 a lesson.",
      'Ava starts swimming at the leisure centre on Sat 3 May, 9am, $80 for the term.',
      'Plumber fixed the leaking shower valve on Monday, $140 cash.',
      'Shopping list: milk, eggs, bread, bin bags, dishwasher tablets.',
    ]);
    // "piano" and "lesson" held, at a cosine the last rule takes: not for Ava, whom another note names.
    const ava = await signalsOf("how much are Ava's piano lessons", "Oliver's");
    expect(ava.missesProperName).toBe(true);
    expect(isSupported({ ...ava, cosine: 0.52 })).toBe(false);
    // Most of the question's words held: still about Oliver.
    const wednesday = await signalsOf("what time is Ava's piano lesson on Wednesdays", "Oliver's");
    expect(wednesday.missesProperName).toBe(true);
    expect(isSupported({ ...wednesday, cosine: 0.4 })).toBe(false);
    // The same questions about Oliver pass.
    const oliver = await signalsOf("how much are Oliver's piano lessons", "Oliver's");
    expect(oliver.missesProperName).toBeUndefined();
    expect(isSupported({ ...oliver, cosine: 0.52 })).toBe(true);
    // Beside an answer, the note may still be cited (the admit bar does not ask it), and a model judges for itself.
    expect(isSupported({ ...ava, cosine: 0.52 }, DEFAULT_ADMIT)).toBe(true);
    // A name no note holds is nobody else's: that the library holds nothing about her is another signal (below).
    expect((await signalsOf("how much are Zoe's piano lessons", "Oliver's")).missesProperName).toBeUndefined();
  });

  it('reads the people a question asks about by first name, and when it asks about two together', () => {
    const persons = (question: string) => [...personsAsked(question)].sort();
    expect(persons("what's Mia's swim fee")).toEqual([...termSet('mia')]);
    expect(persons("when's my meeting with Tom from finance?")).toEqual([...termSet('tom')]);
    expect(persons('whats mia’s swim fee')).toEqual([...termSet('mia')]);
    // A place that is also a name is rarely written as a person's; a name that is a word, a pet's or a surname is none.
    expect(persons('what time is the flight to Sydney')).toEqual([]);
    expect(persons("how much was Biscuit's vet bill")).toEqual([]);
    expect(persons('what did Dr Patel say about my knee')).toEqual([]);
    expect(persons("is Alzheimer's disease inherited")).toEqual([]);

    const ava = new Set([...termSet('ava'), ...termSet('oliver')]);
    expect(namesJoined("is Ava's or Oliver's lesson earlier", ava)).toBe(true);
    expect(namesJoined('how much do Ava and Oliver pay', ava)).toBe(true);
    expect(namesJoined('Ava & Oliver', ava)).toBe(true);
    expect(namesJoined("what time is Ava's lesson with Oliver", ava)).toBe(false);
    expect(namesJoined("how much are Ava's piano lessons", ava)).toBe(false);
  });

  it('answers nothing about a person the library never names, and about either of two asked about together', async () => {
    const signalsOf = await signalsOver([
      "Oliver's piano lesson moved to Wednesdays 4:15pm with Mrs Grant, $35 a lesson.",
      'Ava starts swimming at the leisure centre on Sat 3 May, 9am, $80 for the term.',
      "Emma's birthday party Sat 14 June 2pm at the trampoline park.",
      'Plumber fixed the leaking shower valve on Monday, $140 cash.',
    ]);
    // Nothing turned up names Mia: however close the swimming note is, it is somebody else's.
    const mia = await signalsOf("how much is Mia's swimming for the term", 'Ava');
    expect(mia.asksAboutSomeoneUnnamed).toBe(true);
    expect(isSupported({ ...mia, coverage: 1, matchedTerms: 3, cosine: 0.9, cosineLead: 0.3 })).toBe(false);
    // A model that judges is still asked (the noise bar does not hold names back).
    expect(isSupported({ ...mia, cosine: 0.9 }, DEFAULT_NOISE)).toBe(true);
    // Two people asked about together: a note about either is about one of them, and one named is enough.
    const either = await signalsOf("when is Emma's or Ava's party", 'Emma');
    expect(either.missesProperName).toBeUndefined();
    expect(either.asksAboutSomeoneUnnamed).toBeUndefined();
    expect((await signalsOf("when is Emma's or Mia's party", 'Emma')).asksAboutSomeoneUnnamed).toBeUndefined();
    expect((await signalsOf("when is Lily's or Mia's party", 'Emma')).asksAboutSomeoneUnnamed).toBe(true);
    // Not joined: Ava's note lacks Oliver, whom another note names.
    expect((await signalsOf("does Ava swim before Oliver's lesson", 'Ava')).missesProperName).toBe(true);
  });

  it('asks for a proper name in a library of two notes too', async () => {
    const signalsOf = await signalsOver([
      "Oliver's piano lesson moved to Wednesdays 4:15pm with Mrs Grant, $35 a lesson.",
      'Ava starts swimming at the leisure centre on Sat 3 May, 9am, $80 for the term.',
    ]);
    expect((await signalsOf("how much are Ava's piano lessons", "Oliver's")).missesProperName).toBe(true);
  });

  it('reads no proper name from one most passages hold, as the speakers of a conversation', async () => {
    const signalsOf = await signalsOver([
      'Tim: went to the Lakers game with my brother last night',
      'Tim: my knee still hurts after the match',
      'John: got a new puppy, a beagle called Max',
      'Tim: booked a trip to Spain for November',
    ]);
    // "Tim" is in three of the four: the note without it may still answer by its words.
    expect((await signalsOf("what is Tim's puppy called", 'John')).missesProperName).toBeUndefined();
  });

  it('passes a note that stands out in meaning only when it names one of the things the question names', async () => {
    const signalsOf = await signalsOver([
      'Landlord wrote: rent going up from £900 to £960 a month from 1 April.',
      'Haircut with Jo next Wednesday at 5:30pm.',
      'Repotted the monstera and the fern. Water the fern twice a week.',
    ]);
    const lead = { cosine: 0.45, cosineLead: 0.2 };
    const tax = await signalsOf('how much is the council tax each month', 'Landlord');
    expect(tax.namesNoSubject).toBe(true);
    expect(isSupported({ ...tax, ...lead })).toBe(false);
    // Beside an answer, the same note may still be cited (the admit bar does not ask it).
    expect(isSupported({ ...tax, ...lead }, DEFAULT_ADMIT)).toBe(true);
    const haircut = await signalsOf('what day is the hair appointment with Jo', 'Haircut');
    expect(haircut.namesNoSubject).toBe(false);
    expect(isSupported({ ...haircut, ...lead })).toBe(true);
    // A question naming no thing ("why was it so expensive") leaves the signal out: the lead alone decides, as before.
    expect(isSupported({ coverage: 0, matchedTerms: 0, questionTerms: 1, ...lead })).toBe(true);
  });

  it('passes a passage that holds most of the question, or is very close in meaning', () => {
    expect(isSupported({ coverage: 0.8, matchedTerms: 3, questionTerms: 4, cosine: null })).toBe(true);
    expect(isSupported({ coverage: 0.8, matchedTerms: 1, questionTerms: 4, cosine: null })).toBe(false);
    // One word holding most of the weight counted with rarity is enough when what it misses are words everybody says.
    const one = { coverage: 0.5, matchedTerms: 1, questionTerms: 4, cosine: null };
    expect(isSupported({ ...one, tellingCoverage: 0.8, missedRarity: 0.5 })).toBe(true);
    expect(isSupported({ ...one, tellingCoverage: 0.8, missedRarity: 0.9 })).toBe(false);
    expect(isSupported({ ...one, tellingCoverage: 0.5, missedRarity: 0.5 })).toBe(false);
    expect(isSupported({ coverage: 1, matchedTerms: 1, questionTerms: 1, cosine: null })).toBe(true);
    expect(isSupported({ coverage: 0, matchedTerms: 0, questionTerms: 4, cosine: DEFAULT_SUPPORT.minCosine })).toBe(
      true,
    );
    expect(isSupported({ coverage: 0.35, matchedTerms: 1, questionTerms: 4, cosine: 0.5 })).toBe(true);
    expect(isSupported({ coverage: 0.35, matchedTerms: 1, questionTerms: 4, cosine: 0.4 })).toBe(false);
  });
});

describe('short memories in context (core/memory-context.ts)', () => {
  it('never answers from a turn found only through its neighbours, but grounds the answer on it beside the turns that hold the question', async () => {
    const only = { coverage: 0, matchedTerms: 0, questionTerms: 3, cosine: 0.1, viaContext: true };
    expect(isSupported(only, DEFAULT_SUPPORT)).toBe(false);
    expect(isSupported(only, DEFAULT_RETRIEVAL.admit)).toBe(true);
    expect(isSupported({ ...only, viaContext: false }, DEFAULT_RETRIEVAL.admit)).toBe(false);

    const { services } = coreHarness();
    const ref = { tenantId: 't', endUserId: 'joanna' };
    for (const text of [
      'Joanna: Can I come over to watch your turtles play?',
      'Nate: Sure, see you tomorrow then!',
      'Joanna: Great, I will bring snacks.',
    ]) {
      await services.capture.capture(ref, { text });
    }
    // The model reads "see you tomorrow" beside the plan it answers, so a model that writes can date the visit.
    const { passages } = await new ChatRetriever(services.search).retrieve(ref, 'When can I watch the turtles?');
    const texts = passages.map((p) => p.passage.text);
    expect(texts).toContain('Joanna: Can I come over to watch your turtles play?');
    expect(texts).toContain('Nate: Sure, see you tomorrow then!');
    expect(passages.find((p) => p.passage.text.startsWith('Nate: Sure'))!.signals.viaContext).toBe(true);
  });
});

describe('the grounding prompt', () => {
  it('numbers passages and their lines, and forbids going beyond them', () => {
    const prompt = userPrompt({
      question: 'Q?',
      itemize: false,
      passages: [{ number: 1, title: null, lineStart: 7, lines: ['a', 'b'] }],
    });
    expect(prompt).toBe('Passages:\n\n[1] Untitled\n7: a\n8: b\n\nQuestion: Q?');
    expect(systemPrompt(false)).toMatch(/Never add outside knowledge/);
    expect(systemPrompt(true)).toMatch(/list of facts/);
  });

  it('reads a plain-text reply by its [n] markers in order, rejects one naming a number it was not given, and reads NOT_IN_LIBRARY as no answer', () => {
    const three = [1, 2, 3].map((number) => ({ number, title: null, lineStart: 1, lines: ['x'] }));
    expect(judgeReply({ text: 'A [2]. B [1, 3]. C [2]' }, three)).toEqual({
      kind: 'answer',
      reply: 'A [2]. B [1, 3]. C [2]',
      citations: [{ passage: 2 }, { passage: 1 }, { passage: 3 }],
      droppedQuotes: 0,
    });
    expect(judgeReply({ text: 'A [2]. C [9]' }, three)).toMatchObject({ kind: 'rejected', reason: 'unknown_passage' });
    expect(judgeReply({ text: `  ${NOT_IN_LIBRARY}\n` }, three)).toEqual({ kind: 'not_in_library' });
    expect(judgeReply({ text: '' }, three)).toEqual({ kind: 'not_in_library' });
  });
});

describe('sources', () => {
  const passages: GroundedPassage[] = [
    { number: 1, title: 'A', lineStart: 10, lines: ['ten', 'eleven', '', 'thirteen'], document: 'file_a' },
    { number: 2, title: 'B', lineStart: 1, lines: ['one'], document: 'file_b' },
    { number: 3, title: 'A', lineStart: 40, lines: ['forty'], document: 'file_a' },
  ];

  it('one source per cited document, first cited first, its cited lines numbered as in the document', () => {
    const sources = buildSources(passages, [
      { passage: 2 },
      { passage: 1, lines: [11] },
      { passage: 3 },
      { passage: 7 },
    ]);
    expect(sources).toEqual([
      {
        kind: 'file',
        title: 'B',
        snippet: '1: one',
        file_id: 'file_b',
        metadata: {},
        markers: [{ marker: 2, lines: [1] }],
      },
      {
        kind: 'file',
        title: 'A',
        snippet: '11: eleven\n40: forty',
        file_id: 'file_a',
        metadata: {},
        // Each reply marker [n] with the lines it cites in this document.
        markers: [
          { marker: 1, lines: [11] },
          { marker: 3, lines: [40] },
        ],
      },
    ]);
  });

  it('a citation without lines, or with lines outside its passage, stands for the whole passage (blank lines left out)', () => {
    expect(buildSources(passages, [{ passage: 1, lines: [99] }])[0]!.snippet).toBe('10: ten\n11: eleven\n13: thirteen');
  });

  it('cuts a long cited line around the quote, within 500 characters', () => {
    const long = `${'x'.repeat(900)} the needle sentence. ${'y'.repeat(900)}`;
    const [source] = buildSources(
      [{ number: 1, title: 'L', lineStart: 5, lines: [long], document: 'file_l' }],
      [{ passage: 1, lines: [5], quote: 'the needle sentence.' }],
    );
    expect(source!.snippet.length).toBeLessThanOrEqual(500);
    expect(source!.snippet).toMatch(/^5: …x+ the needle sentence\. y+…$/);
  });

  it('facts are the quotes, or the cited lines', () => {
    expect(citedFacts(passages, [{ passage: 2 }, { passage: 1, lines: [10], quote: 'ten' }, { passage: 3 }])).toEqual([
      { text: 'one', title: 'B', fileId: 'file_b', lines: [1] },
      { text: 'ten', title: 'A', fileId: 'file_a', lines: [10] },
      { text: 'forty', title: 'A', fileId: 'file_a', lines: [40] },
    ]);
  });
});

describe('choosing the passages to answer from', () => {
  const candidate = (itemRank: number, itemScore: number, coverage = 0.8): RetrievedPassage => ({
    itemId: `file_${itemRank}`,
    kind: 'file_excerpt',
    title: null,
    sourceRef: null,
    metadata: {},
    itemRank,
    itemScore,
    passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text: '' },
    signals: { coverage, matchedTerms: 3, questionTerms: 4, cosine: null },
  });
  const options = { ...DEFAULT_RETRIEVAL, grounding: { minItems: 2, maxItems: 4, relativeScore: 0.5 } };
  const chosen = (candidates: RetrievedPassage[]) => selectGrounding(candidates, options).map((p) => p.itemRank);

  it('keeps the contenders of a close race, up to the most it may give', () => {
    expect(chosen([0.9, 0.8, 0.7, 0.6, 0.5, 0.45].map((score, rank) => candidate(rank, score)))).toEqual([0, 1, 2, 3]);
  });

  it('gives a clear winner the fewest items, not the weaker ones beyond', () => {
    expect(chosen([0.9, 0.3, 0.3, 0.2].map((score, rank) => candidate(rank, score)))).toEqual([0, 1]);
    expect(chosen([0.9, 0.8, 0.5, 0.2].map((score, rank) => candidate(rank, score)))).toEqual([0, 1, 2]);
  });

  it('answers from nothing when no passage clears the support gate, and never from one the admit bar refuses', () => {
    expect(chosen([0.9, 0.8].map((score, rank) => candidate(rank, score, 0.1)))).toEqual([]);
    expect(chosen([candidate(0, 0.9), candidate(1, 0.85, 0), candidate(2, 0.8)])).toEqual([0, 2]);
  });
});

describe('the gate with a model that judges, and the gate in tiers', () => {
  const passage = (itemRank: number, signals: RetrievedPassage['signals']): RetrievedPassage => ({
    itemId: `file_${itemRank}`,
    kind: 'file_excerpt',
    title: null,
    sourceRef: null,
    metadata: {},
    itemRank,
    itemScore: 1 - itemRank / 10,
    passage: { ordinal: 0, lineStart: 1, lineEnd: 1, text: '' },
    signals,
  });
  // "Who manages Falcon?" over a status report naming the team lead: one word of two, loosely related, not standing out.
  const loose = passage(0, { coverage: 0.45, matchedTerms: 1, questionTerms: 2, cosine: 0.33, cosineLead: 0.02 });
  const noise = passage(1, { coverage: 0, matchedTerms: 0, questionTerms: 2, cosine: 0.12, cosineLead: -0.21 });
  const judging = { ...DEFAULT_RETRIEVAL, support: DEFAULT_RETRIEVAL.noise, admit: DEFAULT_RETRIEVAL.noise };

  it('refuses for the extractive answerer what it gives a judging model, and gives neither clear noise', () => {
    expect(selectGrounding([loose, noise])).toEqual([]);
    expect(selectGrounding([loose, noise], judging).map((p) => p.itemId)).toEqual(['file_0']);
    expect(selectGrounding([noise], judging)).toEqual([]);
  });

  it('passes a note that stands out in meaning: the further it stands out, the less close it need be', () => {
    const signals = (cosine: number, cosineLead: number) => ({
      coverage: 0,
      matchedTerms: 0,
      questionTerms: 2,
      cosine,
      cosineLead,
    });
    expect(isSupported(signals(0.31, 0.14))).toBe(true); // far ahead of every other note, loosely close
    expect(isSupported(signals(0.41, 0.1))).toBe(true); // ahead, and closer
    expect(isSupported(signals(0.37, 0.1))).toBe(false); // ahead by as much, but not close enough
    expect(isSupported(signals(0.54, 0.08))).toBe(false); // close, but not ahead enough
    expect(isSupported(signals(0.45, 0.02))).toBe(false); // as close as the rest: nothing stands out
  });

  it('passes two of three words with some meaning, never two words alone', () => {
    const words = (cosine: number) => ({ coverage: 0.55, matchedTerms: 2, questionTerms: 3, cosine, cosineLead: 0 });
    expect(isSupported(words(0.4))).toBe(true);
    expect(isSupported(words(0.25))).toBe(false);
    // ...unless the word missed names a thing people do not say all the time: the note is about something else.
    expect(isSupported({ ...words(0.4), missesSubject: true, missedSubjectRarity: 0.5 })).toBe(true);
    expect(isSupported({ ...words(0.4), missesSubject: true, missedSubjectRarity: 0.9 })).toBe(false);
  });

  it('marks the passages that clear the support gate themselves, beside those only admitted', () => {
    const strong = passage(0, { coverage: 0.9, matchedTerms: 3, questionTerms: 3, cosine: 0.6, cosineLead: 0.2 });
    const weak = passage(1, { coverage: 0.25, matchedTerms: 1, questionTerms: 3, cosine: 0.3, cosineLead: -0.3 });
    expect(selectGrounding([strong, weak]).map((p) => [p.itemId, p.supporting])).toEqual([
      ['file_0', true],
      ['file_1', false],
    ]);
  });
});
