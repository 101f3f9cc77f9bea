import { MONEY } from './answer-kinds.js';
import { termSet } from './terms.js';

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

/** Kinds of thing that happen at a time: a note answers by stating when. */
const EVENTS = termSet(
  'appointment appointments visit visits meeting meetings booking bookings event events engagement engagements ' +
    'deadline deadlines schedule calendar diary',
);
/** Kinds of thing that cost money: a note answers by stating an amount. */
const SPENDING = termSet(
  'bill bills payment payments cost costs price prices fee fees expense expenses spending spend spent ' +
    'purchase purchases quote quotes charge charges pay paid outgoings money amounts',
);
/** Kinds of thing paid again and again: a note answers by stating an amount per period. */
const RECURRING = termSet(
  'subscription subscriptions membership memberships monthly weekly yearly annual annually regular recurring ' +
    'direct debit debits',
);
/**
 * Words that narrow such a request in time or to whom without giving it a
 * subject: "coming up", "lately", "so far", "one-off", "in June", "the
 * family's". The notes of the kind rarely repeat them ("Dentist Tue 4 June").
 */
const QUALIFIERS = termSet(
  'recent recently lately already far upcoming next last latest current future past soon due week weeks month months ' +
    'year years today tomorrow weekend weekends all every each new old one off household home family kids children ' +
    'january february march april june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday',
);

/** A day, a date or a clock time: when something happens (not a duration, "40 minutes", which HOLDS.time accepts). */
const WHEN = new RegExp(
  // A clock time, not a price or a rate: "8.30" but not "£17.99" or "4.25%".
  String.raw`\b(?:(?<![£$€¥]\s?)\d{1,2}[:.]\d{2}(?![\d.,]|\s?%)|\d{1,2}\s?(?:am|pm)|\d{1,2}(?:st|nd|rd|th)|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|` +
    String.raw`today|tomorrow|tonight|(?:next|this) (?:week|weekend|month)|` +
    // "May" only beside a day's number: "she may refer me" names no day.
    String.raw`jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|` +
    String.raw`\d{1,2}(?:st|nd|rd|th)? may|may \d{1,2})\b`,
  'i',
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
  const terms = termSet(question);
  const subject = new Set<string>();
  let events = false;
  let spending = false;
  let recurring = false;
  for (const term of terms) {
    if (RECURRING.has(term)) recurring = true;
    else if (SPENDING.has(term)) spending = true;
    else if (EVENTS.has(term)) events = true;
    else if (!QUALIFIERS.has(term)) subject.add(term);
  }
  if ((!events && !spending && !recurring) || subject.size > MAX_SUBJECT_TERMS) return null;
  if (!asksForSeveral && !namesKindInPlural(question)) return null;
  const states: RegExp[] = [];
  const month = monthNamed(question);
  if (month) states.push(month);
  if (events) states.push(WHEN);
  if (spending || recurring) states.push(MONEY);
  if (recurring) states.push(PER_PERIOD);
  return { isStatedIn: (text) => states.every((pattern) => pattern.test(text)), subject };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_IN_QUESTION =
  /\b(?:(january|february|march|april|june|july|august|september|october|november|december)|(?:in|for|during|of|until|by) (may))\b/i;

/**
 * "in June", "for May": a note of the kind then names that month ("4 June",
 * "Tue 14 Jun"). Null when the request names none ("may" alone is a verb).
 */
function monthNamed(question: string): RegExp | null {
  const match = MONTH_IN_QUESTION.exec(question);
  if (!match) return null;
  const month = (match[1] ?? match[2]!).toLowerCase();
  const short = MONTHS.find((m) => month.startsWith(m))!;
  return new RegExp(`\\b(?:${month}|${short}${short === 'sep' ? 't?' : ''})\\b`, 'i');
}

const KIND_WORDS = new Set([...EVENTS, ...SPENDING, ...RECURRING]);

/** "appointments", "bills": a kind named in the plural asks for every thing of that kind. */
function namesKindInPlural(question: string): boolean {
  // Split, not matched with /\p{L}+s\b/: that pattern rescans a long word from each of its letters.
  return question
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .some((word) => word.endsWith('s') && [...termSet(word)].some((t) => KIND_WORDS.has(t)));
}
