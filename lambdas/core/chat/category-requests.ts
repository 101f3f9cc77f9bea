import { MONEY } from './answer-kinds.js';
import { termSet } from './terms.js';
import { MONTH } from './written-names.js';

/**
 * A request for the things of a kind: "list the appointments I have coming
 * up", "make a table of the monthly subscriptions", "what bills did I pay
 * recently", "a table of the window quotes". No note says "appointment" or
 * "subscription" ("Dentist on Tuesday at 3:20pm", "Zen broadband, £35 a
 * month"), so neither the request's words nor its meaning single out a
 * note; what the notes that answer it have in common is what they state: a
 * day or time for an appointment, an amount for a bill, an amount per month
 * for a subscription. Such a request is answered by the notes that state it
 * (and hold its subject's words, "window", when it names one), closest in
 * meaning first (relevance.ts, SupportThresholds.category).
 *
 * A request whose words are mostly its own subject ("list the films we
 * watched", "a table of my running times") is not one: its subject decides,
 * as for any question.
 */
export interface CategoryRequest {
  /** Whether a passage's text states what a note of the category states (a time, an amount, an amount per period). */
  isStatedIn(text: string): boolean;
  /** The request's other content terms ("window" of "the window quotes"): a note of the kind holds every one. */
  subject: ReadonlySet<string>;
}

/** Subject terms a request for things of a kind may name beside the kind ("the vet bills", "the kitchen quotes"). */
const MAX_SUBJECT_TERMS = 2;

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

/**
 * The kinds, as words (not stems: "books" is not "bookings", "meets" not
 * "meetings"), each with its plural. Events happen at a time: a note of one
 * states when.
 */
const EVENTS = words(
  'appointment appointments visit visits meeting meetings booking bookings booked event events engagement engagements ' +
    'deadline deadlines schedule schedules calendar diary celebration celebrations occasion occasions',
);
/** Things that cost money: a note of one states an amount. */
const SPENDING = words(
  'bill bills payment payments cost costs price prices fee fees expense expenses spending purchase purchases ' +
    'quote quotes charge charges outgoings amounts pay paid spend spent',
);
/** Things paid again and again: a note of one states an amount per period. "direct debit" is one word here (see kindWords). */
const RECURRING = words(
  'subscription subscriptions membership memberships monthly weekly yearly annual regular recurring direct_debit direct_debits',
);
/** The kinds named in the plural: such a request asks for every thing of the kind. */
const PLURALS = new Set([...EVENTS, ...SPENDING, ...RECURRING].filter((word) => word.endsWith('s')));
/**
 * Words that narrow such a request in time or to whom without giving it a
 * subject: "coming up", "lately", "so far", "one-off", "in June", "the
 * family's". The notes of the kind rarely repeat them ("Dentist Tue 4 June").
 */
const QUALIFIERS = termSet(
  'recent recently lately already far upcoming next last latest current future past soon due week weeks month months ' +
    'year years today tomorrow weekend weekends all every each everything new old one off household home family kids children ' +
    'january february march april june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday since until money',
);
/**
 * Questions about one thing or about who, where, whether or how many: "who
 * pays the bills", "where did I put the bills", "did I pay the bills", "how
 * many appointments do I have" are not asking for the things themselves.
 */
const NOT_A_LISTING =
  /^\s*(?:who|whom|whose|where|why|did|does|do|is|are|was|were|can|could|should|will|would|have|has|had|how many|how often)\b/i;

/**
 * A day or a clock time: when something happens. Not a duration ("40
 * minutes", which HOLDS.time accepts), nor a month without its day ("renews
 * in January", "order seeds by mid-February": no appointment names only its
 * month), nor "may" the verb.
 */
const WHEN = new RegExp(
  // A clock time, not a price, a rate or a weight: "8.30", "8.30am", not "£17.99", "4.25%" or "2.25kg".
  String.raw`\b(?:(?<![£$€¥]\s?)\d{1,2}[:.]\d{2}(?:\s?[ap]m)?(?![\d.,%\p{L}])|\d{1,2}\s?(?:am|pm)|\d{1,2}(?:st|nd|rd|th)(?!\s+floor)|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|` +
    'today|tomorrow|tonight|(?:next|this) (?:week|weekend)|' +
    String.raw`\d{1,2}\s+(?:of\s+)?(?:${MONTH})|(?:${MONTH})\s+\d{1,2})\b`,
  'iu',
);
/** An amount per period: "£35 a month", "£55 for the year", "monthly", "per week", "/month", "pcm". */
const PER_PERIOD =
  /\b(?:a|an|per|each|every|for the)\s+(?:week|month|quarter|year|term|annum)\b|\b(?:weekly|monthly|quarterly|yearly|annually|termly)\b|\/\s?(?:week|wk|month|mo|year|yr)\b|\bpcm\b/i;

/**
 * The kind of thing a request asks for, with at most MAX_SUBJECT_TERMS words
 * of its own; null for any other question. It must ask for several things (a list, a table, a chart, or a
 * kind named in the plural), so "when is my appointment" stays a question
 * about one appointment.
 */
export function categoryRequest(question: string, asksForSeveral: boolean): CategoryRequest | null {
  if (NOT_A_LISTING.test(question)) return null;
  const named = kindWords(question);
  let events = false;
  let spending = false;
  let recurring = false;
  const rest: string[] = [];
  for (const word of named) {
    if (RECURRING.has(word)) recurring = true;
    else if (SPENDING.has(word)) spending = true;
    else if (EVENTS.has(word)) events = true;
    else rest.push(word);
  }
  if (!events && !spending && !recurring) return null;
  if (!asksForSeveral && !named.some((word) => PLURALS.has(word))) return null;
  // "what I pay each month" asks for what is paid per period, as "my monthly payments" does.
  if (spending && PER_PERIOD.test(question)) recurring = true;
  // A number narrows ("bills over £100"); other words are the subject a note of the kind must hold.
  const subject = new Set([...termSet(rest.join(' '))].filter((t) => !QUALIFIERS.has(t) && !/^\p{N}+$/u.test(t)));
  if (subject.size > MAX_SUBJECT_TERMS) return null;
  const states: RegExp[] = [];
  const when = narrowedTo(question);
  if (when) states.push(when);
  if (events) states.push(WHEN);
  if (spending || recurring) states.push(MONEY);
  if (recurring) states.push(PER_PERIOD);
  return { isStatedIn: (text) => states.every((pattern) => pattern.test(text)), subject };
}

/**
 * The question's words, lower-cased, "direct debit(s)" as one. Split, not
 * matched with a pattern such as /\p{L}+s\b/, which rescans a long word
 * from each of its letters.
 */
function kindWords(question: string): string[] {
  return question
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean)
    .flatMap((word, i, all) =>
      word === 'direct' && /^debits?$/.test(all[i + 1] ?? '')
        ? [`direct_${all[i + 1]}`]
        : word.startsWith('debit') && all[i - 1] === 'direct'
          ? []
          : [word],
    );
}

const NARROWED_TO = new RegExp(
  String.raw`\b(?:in|for|during|on|this|next|until|by) (${MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)\b`,
  'i',
);
/** How notes shorten each day ("Tue 14 May", "Thurs 6pm"). */
const DAY_ABBREVIATIONS: Record<string, string> = {
  mon: 'mon',
  tues: 'tues?',
  wednes: 'wed',
  thurs: 'thu(?:rs?)?',
  fri: 'fri',
  satur: 'sat',
  sun: 'sun',
};

/**
 * "in June", "on Thursday", "this weekend": a note of the kind then names
 * that month ("4 June", "Tue 14 Jun") or day ("Thurs 6pm", "Saturday").
 * May only beside a day's number, since "may" alone is a verb. Null when
 * the request narrows to neither ("since March" does not).
 */
function narrowedTo(question: string): RegExp | null {
  const named = NARROWED_TO.exec(question)?.[1]?.toLowerCase();
  if (!named) return null;
  if (named === 'weekend') return /\b(?:sat(?:urday)?s?|sun(?:day)?s?|weekend)\b/i;
  if (named.endsWith('day')) {
    const stem = named.slice(0, -3);
    return new RegExp(String.raw`\b(?:${stem}days?|${DAY_ABBREVIATIONS[stem]})\b`, 'i');
  }
  if (named === 'may') return /\b(?:\d{1,2}(?:st|nd|rd|th)? may|may \d{1,2})\b/i;
  // The month's own alternative of MONTH: "june?" for June, "sep(?:t(?:ember)?)?" for September.
  const month = MONTH.split('|').find((alternative) => alternative.startsWith(named.slice(0, 3)))!;
  return new RegExp(String.raw`\b(?:${month})\b`, 'i');
}
