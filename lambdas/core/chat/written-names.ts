/**
 * How notes write dates and names, read where a capital letter must be told
 * apart: a month or a weekday is capitalised and no one's name, a title
 * stands before a name ("Dr Chen"), and a sentence's first word is
 * capitalised whatever it is.
 */

/** A month as notes write it, whole or shortened: one alternative a month, each starting with its first three letters. */
export const MONTH =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
/** A month, a weekday or a word of the day's time. */
export const MONTH_OR_DAY =
  `(?:${MONTH}|` +
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|yesterday|weekend|morning|afternoon|evening)';

const CALENDAR_WORD = new RegExp(`^(?:${MONTH_OR_DAY})$`, 'i');
/** Whether a word says when ("June", "Jan", "Monday"): capitalised, but no one's name. */
export const isCalendarWord = (word: string): boolean => CALENDAR_WORD.test(word);

/** Titles (lower-cased): they stand before a name ("Dr Chen", "Mrs. Grant"), and are none. */
export const TITLES: ReadonlySet<string> = new Set(['mr', 'mrs', 'ms', 'mx', 'dr', 'prof', 'st']);

/**
 * Whether the word at `index` is the text's first or opens a sentence: it
 * follows a sentence's end, or a line's. A title's or an initial's full
 * stop ends no sentence ("Dr. Chen", "J. Smith").
 */
export function opensSentence(text: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0 && /\s/u.test(text[i]!)) {
    if (text[i] === '\n') return true;
    i -= 1;
  }
  if (i < 0 || '!?'.includes(text[i]!)) return true;
  if (text[i] !== '.') return false;
  // The word before the full stop (its last letters: a title is short).
  let start = i;
  while (start > 0 && i - start < 8 && /\p{L}/u.test(text[start - 1]!)) start -= 1;
  const before = text.slice(start, i).toLowerCase();
  return !(before.length === 1 || TITLES.has(before));
}
