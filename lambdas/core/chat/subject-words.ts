import lexicon from 'wink-lexicon/src/lexicon.js';
import { ASKING_NOUNS } from './answer-kinds.js';
import { isEnglishWord } from './english-words.js';
import { FIRST_NAMES } from './first-names.js';
import { NOUN_KINDS } from './noun-kinds.js';
import { termSet, wordTerms } from './terms.js';
import { isCalendarWord, opensSentence, TITLES } from './written-names.js';

/**
 * The terms of a question's words that name things: its nouns and names
 * ("sofa", "car", "sister", "Lisbon"), not the verbs and adjectives around
 * them ("which sofa did we pick", "what was wrong with the car"). A note that
 * holds every such word of a question is about what the question is about,
 * whatever else it says; one that misses a noun ("my sister's phone number"
 * over a note giving an insurer's phone number) is about something else.
 *
 * A noun is a word whose most common use is a noun in wink-lexicon's lexicon
 * (WordNet and the Brown corpus); a word it lacks is a name, a brand or a
 * rare word, and names a thing too. In its own module: the lexicon (13,000
 * words, ~30 ms to load) is read only where chat needs it.
 */
export function subjectTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const { word, term } of wordTerms(text)) if (namesAThing(word)) terms.add(term);
  return terms;
}

/** The things a question asks about: its subject terms but the nouns naming the kind of answer ("time", "cost"). */
export function thingsAsked(question: string): Set<string> {
  return new Set([...subjectTerms(question)].filter((term) => !ASKING_NOUNS.has(term)));
}

/** The terms of a text's words that no dictionary knows: names, brands ("Liam", "Xfinity"). */
export function nameTerms(text: string): Set<string> {
  return new Set(unknownWords(text).values());
}

/** A text's words (lower-cased) that no dictionary knows, each with its term. */
function unknownWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const { word, term } of wordTerms(text)) if (!isEnglishWord(word)) words.set(word, term);
  return words;
}

/** A word written with a capital and the rest in lower case, or such parts joined ("Ava", "McKenzie"; not "PK" or "IgG"). */
const CAPITALISED = /(?<![\p{L}\p{N}])\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)*(?![\p{L}\p{N}])/gu;
const WORD_AS_WRITTEN = /[\p{L}\p{N}]+/gu;

/**
 * The terms of the proper names a question asks about: its words no
 * dictionary knows that it writes with a capital, except as the first word
 * of a sentence ("is Ava's lesson on Monday": "Ava"; "Drosophila" opening a
 * claim is not one). A question that writes no word with a capital
 * mid-sentence (but "I") may write no name that way ("how much are ava's
 * lessons"): its words no dictionary knows that the passages always write
 * with a capital are its names ("Ava starts swimming ...", and "Ava" wherever
 * a passage has it); a technical word is written in lower case somewhere
 * ("drosophila" in "the drosophila larvae"). Nor is a month, a weekday or a
 * title ("Dr") a name here.
 */
export function properNameTerms(question: string, passages: readonly string[]): Set<string> {
  const unknown = unknownWords(question);
  for (const word of unknown.keys()) if (isCalendarWord(word) || TITLES.has(word)) unknown.delete(word);
  const terms = new Set<string>();
  if (!unknown.size) return terms;
  const asked = capitalisedMidSentence(question);
  const names = asked.size ? asked : alwaysCapitalised(new Set(unknown.keys()), passages);
  for (const [word, term] of unknown) if (names.has(word)) terms.add(term);
  return terms;
}

let firstNames: ReadonlySet<string> | undefined;
/** A word written as a person's: "Mia's", "with Tom" (the word, lower-cased, is the first or second group). */
const AS_A_PERSON = /(?<![\p{L}\p{N}])(\p{L}+)['’]s(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])with (\p{L}+)(?![\p{L}\p{N}])/giu;

/**
 * The terms of the people a question asks about by first name: a given name
 * (first-names.ts; no English word) written as a person's, "Mia's swim
 * fee", "meeting with Tom". Not a place that is also a name ("the flight to
 * Sydney"): a place is rarely written so.
 */
export function personsAsked(question: string): Set<string> {
  firstNames ??= new Set(FIRST_NAMES.split(/\s+/));
  const terms = new Set<string>();
  for (const match of question.matchAll(AS_A_PERSON)) {
    const word = (match[1] ?? match[2])!.toLowerCase();
    if (firstNames.has(word)) for (const term of termSet(word)) terms.add(term);
  }
  return terms;
}

/** What may stand between names asked about together: "Ava and Oliver", "Ava's or Oliver's", "Ava & Noah". */
const JOINING_NAMES = new Set(['and', 'or', 'nor', 's', '&']);

/**
 * Whether the question asks about two of `names` (their terms) together or
 * as alternatives ("is Ava's or Oliver's lesson earlier"), so a note holding
 * either is about one it asks about; not "Ava's lesson with Oliver".
 */
export function namesJoined(question: string, names: ReadonlySet<string>): boolean {
  if (names.size < 2) return false;
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+|&/gu) ?? [];
  let lastName = -1;
  for (let i = 0; i < words.length; i++) {
    if (!names.has(termSet(words[i]!).values().next().value ?? '')) continue;
    if (lastName >= 0 && words.slice(lastName + 1, i).every((word) => JOINING_NAMES.has(word))) return true;
    lastName = i;
  }
  return false;
}

/** The words (lower-cased) a text writes with a capital, but as a sentence's first word and "I". */
function capitalisedMidSentence(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.matchAll(CAPITALISED))
    if (match[0] !== 'I' && !opensSentence(text, match.index)) words.add(match[0].toLowerCase());
  return words;
}

/** Of `words` (lower-cased), those the passages hold and always write with a capital. */
function alwaysCapitalised(words: ReadonlySet<string>, passages: readonly string[]): Set<string> {
  const capitalised = new Set<string>();
  const lower = new Set<string>();
  for (const text of passages)
    for (const [written] of text.matchAll(WORD_AS_WRITTEN)) {
      const word = written.toLowerCase();
      if (!words.has(word)) continue;
      (written[0] === word[0] ? lower : capitalised).add(word);
    }
  return new Set([...capitalised].filter((word) => !lower.has(word)));
}

function namesAThing(word: string): boolean {
  if (!isEnglishWord(word)) return true;
  return lexicon[word]![0]!.startsWith('NN');
}

type Naming = readonly (readonly string[])[];
let kindsOf: Map<string, { all: Naming; main: Naming }> | undefined;
/**
 * The words naming a noun's term or a kind of it (noun-kinds.ts), each as
 * its terms (a name of several words, "wash+machin", as several): `all`, or
 * only those naming one of its main senses. Read once when first asked.
 */
function namingTerms(term: string, senses: 'all' | 'main'): Naming {
  if (!kindsOf) {
    kindsOf = new Map();
    for (const line of NOUN_KINDS.split('\n')) {
      const [noun, ...naming] = line.split(' ');
      const all: string[][] = [];
      const main: string[][] = [];
      for (const name of naming) {
        const isMain = name.startsWith('*');
        const parts = (isMain ? name.slice(1) : name).split('+');
        all.push(parts);
        if (isMain) main.push(parts);
      }
      kindsOf.set(noun!, { all, main });
    }
  }
  return kindsOf.get(term)?.[senses] ?? [];
}

/** Where a word's capitals join words into one: "PureGym", "WeBuyAnyCar", "DevConf". */
const COMPOUND_JOIN = /(?<=\p{Ll})(?=\p{Lu})/u;

/**
 * Nouns that measure a time or an amount: every dated or priced note holds
 * some ("£960 a month", "Friday morning"), so holding one names nothing a
 * question is about ("how much is the council tax each month").
 */
const MEASURE_TERMS = termSet(
  'time day week weekend month year hour minute date morning afternoon evening night cost price amount money total number',
);

/**
 * Whether a passage names one of a question's subjects (subjectTerms): it
 * holds the word, a word for the same thing or a kind of it ("bike" for
 * "bicycle", "GP" for "doctor", "fern" for "plants"; noun-kinds.ts), or
 * joins it into a name ("PureGym" for "gym"). A note about the rent names
 * none of "how much is the council tax each month": nouns of time and
 * amount (MEASURE_TERMS) name no subject. A question naming only those
 * names none, and any passage passes.
 */
export function namesASubject(subject: ReadonlySet<string>, passageTerms: ReadonlySet<string>, text: string): boolean {
  const named = [...subject].filter((term) => !MEASURE_TERMS.has(term));
  if (!named.length) return true; // a question asking only when or how much ("what time is it") names no subject
  return subjectsNamed(new Set(named), passageTerms, text, 'all').size > 0;
}

/**
 * The question's subject terms a passage names: held, named by a word for
 * the same thing or a kind of it in any of its senses (`all`) or only in its
 * main ones (`main`: "invoice" names a bill, a beak does not), or joined
 * into a name (as namesASubject). A word the question says itself names
 * only itself: "blue" is a name for the sky, but not in "why is the sky blue".
 */
export function subjectsNamed(
  subject: ReadonlySet<string>,
  passageTerms: ReadonlySet<string>,
  text: string,
  senses: 'all' | 'main',
  questionTerms: ReadonlySet<string> = subject,
): Set<string> {
  const names = (name: readonly string[]) =>
    name.every((part) => passageTerms.has(part)) && !name.every((part) => questionTerms.has(part));
  const named = new Set<string>();
  for (const term of subject) {
    if (passageTerms.has(term)) named.add(term);
    else if (!MEASURE_TERMS.has(term) && namingTerms(term, senses).some(names)) named.add(term);
  }
  if (named.size === subject.size) return named;
  const joined = text.split(/[^\p{L}]+/u).flatMap((word) => {
    const parts = word.split(COMPOUND_JOIN);
    return parts.length > 1 ? parts : [];
  });
  if (!joined.length) return named;
  const parts = termSet(joined.join(' '));
  for (const term of subject) if (!MEASURE_TERMS.has(term) && parts.has(term)) named.add(term);
  return named;
}
