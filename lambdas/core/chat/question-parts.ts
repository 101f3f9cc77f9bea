import { refersBack } from './conversations.js';
import { contentTerms } from './terms.js';

/**
 * A question that asks two things at once ("where are we staying for the
 * wedding and what does it cost", "When is the dentist? And the optician?")
 * weighs each ask's words against every passage, so a note that answers one
 * of them holds too little of the whole to clear the support gate. Its parts
 * are the asks it joins: split where "and", "but", "also" or a semicolon
 * (with or without a comma before it) is followed by a question word (what,
 * when, where, who, why, how, which: after "and", an auxiliary such as
 * "have" or "is" more often goes on with the same ask), and after a
 * question mark followed by such a question ("When is the dentist? And
 * where?"), not by an instruction ("... Answer yes or no."). English only; a question
 * that joins two things in one ask ("cats and dogs") is one part.
 */
const ASK = '(?=(?:what|when|where|who|whom|whose|why|how|which)\\b)';
const JOIN = new RegExp(`[;?]\\s*(?:(?:and|but|also)\\s+)?${ASK}|,?\\s(?:and|but|also)\\s+${ASK}`, 'iu');

/** The asks a question joins, each with words of its own; a single ask gives one part (the question). */
export function questionParts(question: string): string[] {
  const parts = question
    .split(JOIN)
    .map((part) => part.trim())
    .filter((part) => contentTerms(part).length > 0);
  return parts.length > 1 ? parts : [question];
}

/**
 * The parts that can be searched alone: a part that points back ("what does
 * it cost") needs the part before it, which is searched itself.
 */
export function standaloneParts(question: string): string[] {
  const parts = questionParts(question);
  return parts.length > 1 ? parts.filter((part) => !refersBack(part)) : [];
}
