import lexicon from 'wink-lexicon/src/lexicon.js';

/** Whether wink-lexicon knows the word (lower-cased): a capitalised word it does not know is a name ("Sarah", "Okafor"). */
export function isEnglishWord(word: string): boolean {
  return Object.hasOwn(lexicon, word.toLowerCase());
}
