import lexicon from 'wink-lexicon/src/lexicon.js';
import { wordTerms } from './terms.js';

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

function namesAThing(word: string): boolean {
  if (!isEnglishWord(word)) return true;
  return lexicon[word]![0]!.startsWith('NN');
}

/** Whether wink-lexicon knows the word (lower-cased): a capitalised word it does not know is a name ("Sarah", "Okafor"). */
export function isEnglishWord(word: string): boolean {
  return Object.hasOwn(lexicon, word.toLowerCase());
}
