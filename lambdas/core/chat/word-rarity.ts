import { COMMON_WORDS } from './common-words.js';

/**
 * How much a word says about what a question is after, from how often people
 * say it at all (SUBTLEX-US: 74,286 words counted over 51 million words of
 * film and TV subtitles, everyday spoken English; common-words.ts keeps the
 * ones that matter here). "leave", "old", "back" or "time" are said all the
 * time and tell little of a question's subject; "dentist", "gig" or "nephew"
 * are rare and name it. So a passage that holds a question's rare words but
 * not its common ones still answers it, while one that misses the rare word
 * ("when is the dentist appointment" over a note about a blood test) does not.
 *
 * On the Zipf scale (log10 of uses per billion words): 1 at or below
 * RARE_ZIPF (and for words the table lacks: rarer words, names, brands,
 * British spellings), falling linearly to FLOOR at COMMON_ZIPF and above.
 */
const RARE_ZIPF = 4;
const COMMON_ZIPF = 6.5;
const FLOOR = 0.2;

let zipfOf: Map<string, number> | undefined;
function zipf(word: string): number | undefined {
  if (!zipfOf) {
    zipfOf = new Map();
    for (const line of COMMON_WORDS) {
      const parts = line.split(' ');
      for (let i = 0; i + 1 < parts.length; i += 2) zipfOf.set(parts[i]!, Number(parts[i + 1]));
    }
  }
  return zipfOf.get(word);
}

/** 0.2 (said all the time) .. 1 (rare): the weight a question word's rarity in everyday English gives it. */
export function wordRarity(word: string): number {
  const z = zipf(word.toLowerCase());
  if (z === undefined || z <= RARE_ZIPF) return 1;
  if (z >= COMMON_ZIPF) return FLOOR;
  return 1 - ((1 - FLOOR) * (z - RARE_ZIPF)) / (COMMON_ZIPF - RARE_ZIPF);
}
