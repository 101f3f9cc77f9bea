import { stemmer } from 'stemmer';

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

const ASKING_WORDS = `tell show give list lists table tables chart charts graph graphs plot plots make create build draw
please summarize summarise summary explain describe know find according library libraries document documents doc docs
file files note notes say says said mention mentions mentioned anything something thing things kind kinds much many
question answer now often usually ever exactly really bar pie get gets got
decide decided decision decisions agree agreed conclude concluded`;

const STOPWORDS = new Set(`${FUNCTION_WORDS} ${ASKING_WORDS}`.split(/\s+/).filter(Boolean));

const WORD = /[\p{L}\p{N}]+/gu;

/** Stemming is the costly step and words repeat: remember recent stems. */
const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size > 100_000) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

/** Stemmed content terms of a text, in order, repeats kept. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (STOPWORDS.has(word)) continue;
    if (word.length === 1 && !/\p{N}/u.test(word)) continue;
    terms.push(/^\p{N}+$/u.test(word) ? word : stem(word));
  }
  return terms;
}

export const termSet = (text: string): Set<string> => new Set(contentTerms(text));
