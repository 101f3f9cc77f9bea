import { stemmer } from 'stemmer';
import nounExceptions from 'wink-lexicon/src/wn-noun-exceptions.js';
import verbExceptions from 'wink-lexicon/src/wn-verb-exceptions.js';
import { wordRarity } from './word-rarity.js';

/**
 * The words of a text that carry its meaning: lower-cased, Porter-stemmed,
 * without English function words or the words people use to ask ("what",
 * "tell me", "make a table", "what did we decide about"), so a question and
 * a passage can be compared by what they are about: "what did we decide
 * about hiring?" is about hiring, whether the note says decided or agreed.
 */
const FUNCTION_WORDS = `a about above after again against all am an and any are aren as at be because been before being
below between both but by can cannot could did didn do does doesn doing don down during each few for from further had
has have having he her here hers herself him himself his how i if in into is isn it its itself just let me more most
my myself no nor not of off on once only or other ought our ours ourselves out over own same she should so some such
than that the their theirs them themselves then there these they this those through to too under until up very was
wasn we were weren what when where which while who whom why will with won would you your yours yourself yourselves
also may might must shall s t ll re ve d m o y etc e g i.e via per upon whether`;

const ASKING_WORDS = `tell show give list lists table tables chart charts graph graphs make create build draw
please summarize summarise summary explain describe know find according library libraries document documents doc docs
file files note notes say says said mention mentions mentioned anything something thing things kind kinds much many
question answer now often usually ever exactly really get gets got
decide decided decision decisions agree agreed conclude concluded choose chose chosen
go goes going come comes coming happen happens happened happening look looks looked looking need needs needed
needing still else someone somebody anyone everything nothing put puts putting
problem problems trouble issue issues situation story news update updates detail details info information
quick quickly brief briefly overview recap rundown`;

const STOPWORDS = new Set(`${FUNCTION_WORDS} ${ASKING_WORDS}`.split(/\s+/).filter(Boolean));

/**
 * Asking verbs in every form, by stem: "what did we end up deciding", "who
 * are we choosing", "summarising". A question's "deciding" is no more about
 * anything than its "decided", and a note's "Decided no second car" drops
 * the word: kept, it would be a word of the question no note can hold.
 */
const ASKING_VERB_STEMS = new Set(
  'decide agree conclude choose summarize summarise explain describe mention tell'
    .split(' ')
    .map((verb) => stemmer(verb)),
);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A word's base form when it is irregular (WordNet's exception lists, from
 * wink-lexicon: "paid" is "pay", "sold" is "sell", "children" is "child"),
 * which stemming alone leaves apart, so "how much did I pay" meets "paid
 * £80". Regular forms are left to the stemmer.
 */
function baseForm(word: string): string {
  return SHORT_DATES.get(word) ?? verbExceptions[word] ?? nounExceptions[word] ?? word;
}

/**
 * Months and weekdays as notes shorten them ("Hydro Jan bill", "Tue Oct
 * 15"), read as the words a question spells out. Not "mar", "sat" or
 * "sun", which are words of their own ("may" is a function word), nor
 * "apr", a loan's rate as often as April. "Jan" the name meets January.
 */
const SHORT_DATES: ReadonlyMap<string, string> = new Map([
  ['jan', 'january'],
  ['feb', 'february'],
  ['jun', 'june'],
  ['jul', 'july'],
  ['aug', 'august'],
  ['sep', 'september'],
  ['sept', 'september'],
  ['oct', 'october'],
  ['nov', 'november'],
  ['dec', 'december'],
  ['mon', 'monday'],
  ['tue', 'tuesday'],
  ['tues', 'tuesday'],
  ['wed', 'wednesday'],
  ['thu', 'thursday'],
  ['thur', 'thursday'],
  ['thurs', 'thursday'],
  ['fri', 'friday'],
]);

/** Whether a word is a month's or a weekday's short form, read as the whole word (SHORT_DATES). */
export function isShortDate(word: string): boolean {
  return SHORT_DATES.has(word.toLowerCase());
}

/** The term a content word counts as, or null for a function or asking word (in any of its forms). */
const termCache = new Map<string, string | null>();
function termOf(word: string): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    if (termCache.size > 100_000) termCache.clear();
    const base = baseForm(word);
    const stem = stemmer(base);
    term = STOPWORDS.has(word) || STOPWORDS.has(base) || ASKING_VERB_STEMS.has(stem) ? null : stem;
    termCache.set(word, term);
  }
  return term;
}

/**
 * Words that ask for a chart only where they do: "bar" and "pie" before
 * "chart" or "graph", and "plot" as the verb that opens a request ("plot
 * the sales", "can you plot my runs": only function and asking words before
 * it, and no determiner right before it). Elsewhere they are the everyday
 * nouns they are: "my vegetable plot", "what was the plot of the book", "the
 * apple pie", "a bar of chocolate". (A note opening with "Plot" is read as
 * asking too; notes rarely start so.)
 */
const CHART_WORDS = new Set(['chart', 'charts', 'graph', 'graphs']);
const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'this', 'that']);
function asksForChart(words: readonly string[], i: number): boolean {
  const word = words[i]!;
  if (word === 'bar' || word === 'pie') return CHART_WORDS.has(words[i + 1] ?? '');
  if (word !== 'plot' && word !== 'plots') return false;
  if (i > 0 && DETERMINERS.has(words[i - 1]!)) return false;
  return words.slice(0, i).every((before) => before.length < 2 || termOf(before) === null);
}

/** "End up" says how something turned out, not what: "what did we end up paying", "ended up with the blue one". */
const END = new Set(['end', 'ends', 'ended', 'ending']);
const endsUp = (words: readonly string[], i: number): boolean => END.has(words[i]!) && words[i + 1] === 'up';

const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

const NUMBER = /^\p{N}+$/u;
/** The term the i-th word counts as, or null. A number is its own term; a lone letter is none. */
function termAt(words: readonly string[], i: number): string | null {
  const word = words[i]!;
  if (asksForChart(words, i) || endsUp(words, i)) return null;
  const first = word.charCodeAt(0);
  // A word opening with a letter a-z is no number: the pattern is read only for the others.
  if ((first < 97 || first > 122) && NUMBER.test(word)) return word;
  return word.length > 1 ? termOf(word) : null;
}

/** Each content word of a text (lower-cased) with the term it counts as, in order. */
export function* wordTerms(text: string): Generator<{ word: string; term: string }> {
  const words = wordsOf(text);
  for (let i = 0; i < words.length; i++) {
    const term = termAt(words, i);
    if (term !== null) yield { word: words[i]!, term };
  }
}

/** Stemmed content terms of a text, in order, repeats kept. A plain loop, not wordTerms: search reads them for every result it scores. */
export function contentTerms(text: string): string[] {
  const words = wordsOf(text);
  const terms: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const term = termAt(words, i);
    if (term !== null) terms.push(term);
  }
  return terms;
}

export const termSet = (text: string): Set<string> => new Set(contentTerms(text));

/**
 * Each content term of a text with how rare its word is in everyday English
 * (word-rarity.ts; the rarest of the words that share the term): how much it
 * tells of what the text is about.
 */
export function termRarity(text: string): Map<string, number> {
  const rarity = new Map<string, number>();
  for (const { word, term } of wordTerms(text)) rarity.set(term, Math.max(rarity.get(term) ?? 0, wordRarity(word)));
  return rarity;
}
