import { type CategoryRequest, categoryRequest } from './category-requests.js';

/** Whether a question asks for a creation, and which. */
export type ArtifactIntent = 'chart' | 'table' | 'list';

const CHART = /\b(chart|charts|graph|graphs|plot|plots|visuali[sz]e|visuali[sz]ation|diagram|histogram)\b/i;
/** "table" the furniture or the salt is not a request for one. */
const TABLE = /\b(table(?!\s+(salt|tennis|spoons?|cloth|manners|wine|top))|tables|tabulate|spreadsheet|csv)\b/i;
const LIST = /\b(list|lists|enumerate|bullet|bullets|bulleted|itemi[sz]e)\b/i;

/**
 * A question whose answer is several things without saying "list": "what
 * are the rules at the allotment", "what do I need for the cycling class",
 * "what else needs doing", "what have I got coming up", "anything I need to
 * remember for the school trip". Its answer is itemized, but no artifact is made
 * (one is made only when asked for).
 */
const SEVERAL = new RegExp(
  [
    String.raw`^\s*(?:what|which)\s+(?:\w+\s+)?(?:are|were)\s+(?:the|my|our|all|his|her|their)\b`,
    String.raw`\bwhat\s+(?:else\s+)?(?:do|does|did|should|must)\s+(?:i|we|you|they)\s+(?:still\s+)?(?:need|have|bring|take|pack|buy|get|grab|pick|remember|do|prepare)\s+(?:to|for|up|at|from|before|when)\b`,
    String.raw`\bwhat\s+(?:else\s+)?needs?\s`,
    // "what have I got coming up", "what repair jobs have we got booked"
    String.raw`^\s*what\s+(?:\w+\s+){0,5}?(?:have|has)\s+(?:i|we|you|they)\s+got\b`,
    // "anything I need to remember for the school trip"
    String.raw`^\s*(?:is\s+there\s+)?anything\s+(?:else\s+)?(?:i|we)\s+(?:need|have|should|must|ought)\b`,
  ].join('|'),
  'i',
);

const asksForSeveral = (question: string) => artifactIntent(question) !== null || SEVERAL.test(question);

/**
 * Whether the answer should come as items: a creation asked for, a question
 * whose answer is several things, or a kind of thing named in the plural
 * ("what appointments do I have").
 */
export function wantsItems(question: string): boolean {
  return asksForSeveral(question) || categoryOf(question) !== null;
}

/** The kind of thing a request names, when that is all it names (category-requests.ts). */
export function categoryOf(question: string): CategoryRequest | null {
  return categoryRequest(question, asksForSeveral(question));
}

export function artifactIntent(question: string): ArtifactIntent | null {
  if (CHART.test(question)) return 'chart';
  if (TABLE.test(question)) return 'table';
  if (LIST.test(question)) return 'list';
  return null;
}

const REQUEST_PREFIX =
  /^\s*(please\s+)?((can|could|would)\s+you\s+)?(make|create|build|draw|give|show|produce|prepare|generate|plot|chart|graph|list|tabulate|put)(\s+me)?(\s+(a|an|the))?(\s+(bar|line|pie))?(\s+(chart|graph|plot|table|list|diagram|spreadsheet))?(\s+(of|with|for|about|showing|comparing|listing))?\s+/i;

/** A short title for a creation, from the question. */
export function artifactTitle(question: string, fallback: string): string {
  // (?<![?.!\s]): the closing run of punctuation and spaces is matched from its first character
  // only, linear on any question (/[?.!\s]+$/ retried a long run from each of its positions).
  const stripped = question
    .replace(REQUEST_PREFIX, '')
    .replace(/^(the|a|an)\s+/i, '')
    .replace(/(?<![?.!\s])[?.!\s]+$/, '')
    .trim();
  const subject = stripped || question.trim();
  const title = subject.charAt(0).toUpperCase() + subject.slice(1);
  return (title.length > 80 ? `${title.slice(0, 79)}…` : title) || fallback;
}
