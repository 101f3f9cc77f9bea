import { isEnglishWord } from './english-words.js';
import { termSet } from './terms.js';
import { isCalendarWord, MONTH_OR_DAY, opensSentence } from './written-names.js';

/**
 * What a question asks for, read from its words: a time or date, an amount
 * of money, a count, a person (or a firm) by name, or a summary of what a
 * note says. A sentence that holds such a thing answers it better than one
 * that only shares its words ("how much did the repair cost" over "Labour
 * £90, part £45"; "who fixed the washing machine" over "Repair man (Bob)
 * replaced the gasket" rather than "Washing machine leaking"). Also a reason
 * ("why": a sentence saying because, due to, ...) and a decision ("what did
 * we decide about the mortgage": the sentence saying what was decided or
 * chosen, not the one naming the mortgage first). "What was wrong with the
 * car" asks what the note about it says, as "what happened" does: the flat
 * battery, not only "the car would not start".
 */
export type Wanted = 'time' | 'duration' | 'amount' | 'count' | 'person' | 'reason' | 'decision' | 'summary';

const ASKS: ReadonlyArray<[Wanted, RegExp]> = [
  [
    'summary',
    /\b(?:summar(?:y|i[sz]e)|recap|overview|sum up|what happened|tell me about|catch me up|what did \w+ say)\b/i,
  ],
  // "What was it for?" asks the purpose ("for his vaccinations"), not the amount an earlier question asked.
  [
    'reason',
    /\b(?:why|how come|what was the reason|reason for|what (?:is|was|are|were) (?:it|that|this|they|those|these) for\b(?![ \t]*\w))/i,
  ],
  [
    'amount',
    /\b(?:how much|cost|costs|price|prices|paid|pay|pays|spent|spend|salary|rent|fee|fees|bill|charge|owe|owed|budget|rate)\b/i,
  ],
  ['count', /\b(?:how many|number of)\b/i],
  ['duration', /\bhow long\b/i],
  ['time', /\b(?:when|what time|which day|what day|what date|how soon|until when|by when|due)\b/i],
  // After the others: "when did we decide", "how much did we agree to pay", "who is coming and when".
  [
    'decision',
    /\b(?:decid(?:e|es|ed|ing)|decision|agree(?:s|d|ing)?|choos(?:e|es|ing)|chose|chosen|pick(?:s|ed|ing)?(?! up\b)|settl(?:e|es|ed|ing) on|go with|going with|went with|opt(?:s|ed|ing)?)\b/i,
  ],
  ['person', /\b(?:who|whom|whose)\b/i],
  // Last: "what is wrong with the roof and what will it cost" asks for the amount.
  // "The issue" or "the problem" as the thing asked about, not a noun's first word ("the issue date", "the problem set").
  [
    'summary',
    /\b(?:what(?:'s| is| was) (?:wrong|the (?:problem|issue|matter)(?=\s*(?:$|[?.!,]|(?:with|about|at|on|in|for|here|there)\b)))|what went wrong)\b/i,
  ],
];

/**
 * A name: a capitalised word inside a sentence ("Repair man (Bob, ...", "Mrs
 * Hughes at no. 9"), or one opening it that is no English word ("Sarah is
 * sorting the catering", not "Team offsite moved"), and not a day or a month.
 */
const CAPITALISED = /\b[A-Z][a-z]+/g;
function holdsAName(text: string): boolean {
  for (const match of text.matchAll(CAPITALISED)) {
    const word = match[0];
    if (isCalendarWord(word)) continue;
    if (!opensSentence(text, match.index) || !isEnglishWord(word)) return true;
  }
  return false;
}

/** A day of the month written as an ordinal ("the 14th"), not an age or a rank ("70th birthday", "99th percentile"). */
const DAY_OF_MONTH = String.raw`(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)`;

/** A length of time: "40 minutes", "a 10-year guarantee", "three nights". */
const SPAN = String.raw`(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve)[ -](?:days?|weeks?|months?|years?|hours?|minutes?|nights?)`;

export const HOLDS: Record<Exclude<Wanted, 'summary'>, Pick<RegExp, 'test'>> = {
  // When: a date or a clock time, or a span from now ("in 3 weeks", "2 days ago"); not a length alone ("a 10 year
  // guarantee" answered "when is the sofa being delivered" over the note's "Delivery on 20 November").
  time: new RegExp(
    String.raw`\b(?:\d{1,2}[:.]\d{2}|\d{1,2}\s?(?:am|pm)|${DAY_OF_MONTH}|${MONTH_OR_DAY}|(?:next|last|this) (?:week|month|year)|in ${SPAN}|${SPAN} (?:ago|later|from now))\b`,
    'i',
  ),
  // How long: a length of time, or the dates it runs between.
  duration: new RegExp(String.raw`\b(?:${SPAN}|${MONTH_OR_DAY})\b`, 'i'),
  amount: /[£$€¥]\s?\d|(?<![\d,.])\d[\d,.]*\s?(?:k|pounds?|dollars?|euros?|pence|%|per ?cent)(?![a-z])/i,
  count: /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b/i,
  // Or a firm's name ("Halfords"): who did a job is often a firm.
  person: { test: holdsAName },
  reason: /\b(?:because|due to|as a result|so that|reason|caused by|thanks to|otherwise)\b/i,
  decision:
    /\b(?:decided|decision|agreed|chose|chosen|picked|went with|going with|go with|settled on|opted|sticking with|rather than|instead of)\b/i,
};

/** What the question wants, if one of the kinds above. */
export function wanted(question: string): Wanted | null {
  for (const [kind, asks] of ASKS) if (asks.test(question)) return kind;
  return null;
}

/**
 * Words that name the kind of answer rather than its subject: a passage
 * stating an amount of money ("Total £486") answers "how much did the trip
 * cost" without the word "cost", "how much will I save" without "save", and
 * "who owes me money" without "money" ("I owe Sarah $46").
 * (Not "bill", "rent" or "salary": those name a subject too, and "the phone
 * bill" is not any amount.) Stemmed as terms.ts stems them. (The same for
 * "time" over any passage with a date was tried and left out: it helped no
 * question of the train sets, and "my running times" met every dated note.)
 */
const ANSWERED_BY_MONEY = termSet('cost price pay charge spend fee save owe earn worth money');
/**
 * Nouns that name the kind of answer asked for, not a thing asked about:
 * "what time?", "which day?", "what price?" ask the time, day or price of
 * what was said before, and name nothing of their own (conversations.ts).
 */
export const ASKING_NOUNS = termSet('time date day hour price cost amount total fee charge place reason');

/** An amount of money (not any number or percentage: "cost" is not answered by "12% of patients"). */
// (?<![\d,.]): a run of digits and separators ("1,2,3,...") is read from its start only, not from each digit.
export const MONEY = /[£$€¥]\s?\d|(?<![\d,.])\d[\d,.]*\s?(?:pounds?|dollars?|euros?|pence|quid|bucks)\b/i;

/**
 * Words asking for a name in "which company is doing the patio", "what
 * firm did we use": a passage naming someone or something ("Picked
 * PaveRight") answers them without the word. Not "shop" or "store", which
 * name a place asked about as often as a name.
 */
const ANSWERED_BY_NAME = termSet('company firm business provider supplier');

/**
 * A passage's terms with the words it answers by what it states: the amount
 * words when it holds an amount of money, the words asking for a firm's
 * name when it holds a name. A word every passage then holds weighs little
 * (termWeights).
 */
export function withAnswerKinds(terms: ReadonlySet<string>, text: string): Set<string> {
  const out = new Set(terms);
  if (MONEY.test(text)) for (const term of ANSWERED_BY_MONEY) out.add(term);
  if (holdsAName(text)) for (const term of ANSWERED_BY_NAME) out.add(term);
  return out;
}
