import { MONEY } from './answer-kinds.js';
import { type ArtifactIntent, artifactTitle } from './intent.js';

/**
 * Creations built from the cited facts only: a table (Markdown), a list
 * (Markdown document), or a chart (Vega-Lite v5) when the facts hold numbers.
 * Nothing here is invented: every cell, item and data point is a cited fact
 * or a number read from one, with its source.
 */
export interface CitedFact {
  text: string;
  title: string;
  fileId: string;
  lines: readonly number[];
}

export interface ArtifactDraft {
  type: 'table' | 'chart' | 'document';
  title: string;
  content_type: string;
  content: string;
  /** Searchable text of the creation (what the index stores for it). */
  searchText: string;
}

export interface DataPoint {
  label: string;
  value: number;
  unit: string | null;
  source: string;
}

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

const lineLabel = (lines: readonly number[]) =>
  !lines.length ? '' : lines.length === 1 ? `line ${lines[0]}` : `lines ${lines[0]}–${lines[lines.length - 1]}`;
const sourceLabel = (fact: CitedFact) => `${fact.title || fact.fileId}, ${lineLabel(fact.lines)}`.replace(/, $/, '');
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** What \s matches (ECMAScript white space and line terminators), and what . does not (line terminators). */
const isSpace = (c: number) =>
  c === 0x20 ||
  (c >= 0x09 && c <= 0x0d) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const isLineBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
/** What a key may not hold: ':', '=', '—'. What separates it from its value: those, or '–' (which a key may hold). */
const isNotInKey = (c: number) => c === 0x3a || c === 0x3d || c === 0x2014;
const isSeparator = (c: number) => isNotInKey(c) || c === 0x2013;
/** '-', '*', '•' */
const isBullet = (c: number) => c === 0x2d || c === 0x2a || c === 0x2022;
const KEY_MAX = 60;

/**
 * "Key: value", "Key = value" or "Key — value" (a short key, an optional bullet before it).
 *
 * Read by position in linear time. It gives what the pattern
 * /^\s*[-*•]?\s*([^:=—]{1,60}?)\s*(?::|=|—|–)\s+(.+)$/ gave (key = its group 1, value = its
 * group 2, both trimmed after), choosing as that pattern's backtracking chose; the pattern took
 * seconds on a few hundred spaces, its \s* runs trading characters. The key starts as late as the
 * opening spaces and bullet allow, else one character earlier at a time; it ends as early as it
 * can (1 to 60 characters, none of `:=—`), followed by spaces, a separator, at least one space,
 * and a value that runs to the end of the text on one line.
 */
export function keyValue(text: string): { key: string; value: string } | null {
  const n = text.length;
  // spaceEnd[i]: where the run of spaces from i ends (i when text[i] is no space).
  const spaceEnd = new Int32Array(n + 1).fill(n);
  let lastBreak = -1;
  for (let i = n - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    spaceEnd[i] = isSpace(c) ? spaceEnd[i + 1]! : i;
    if (lastBreak === -1 && isLineBreak(c)) lastBreak = i;
  }
  // After a separator, from `at`: spaces (all of them, or all but the last character when nothing
  // else follows), then the value, which must hold no line break.
  const valueFrom = (at: number): number => {
    if (at >= n || spaceEnd[at] === at) return -1;
    const start = spaceEnd[at]!;
    if (start < n) return lastBreak < start ? start : -1;
    return n - at >= 2 && !isLineBreak(text.charCodeAt(n - 1)) ? n - 1 : -1;
  };
  // firstEnd[i]: the first key end >= i after which spaces, a separator and a value follow (n + 1 if none);
  // notInKey[i]: the first position >= i holding a character a key may not hold (n if none).
  const firstEnd = new Int32Array(n + 2).fill(n + 1);
  const notInKey = new Int32Array(n + 1).fill(n);
  const valueStart = new Int32Array(n + 1).fill(-1);
  for (let i = n; i >= 0; i--) {
    if (i < n) notInKey[i] = isNotInKey(text.charCodeAt(i)) ? i : notInKey[i + 1]!;
    const separator = spaceEnd[i]!;
    valueStart[i] = separator < n && isSeparator(text.charCodeAt(separator)) ? valueFrom(separator + 1) : -1;
    firstEnd[i] = valueStart[i] !== -1 ? i : firstEnd[i + 1]!;
  }
  const opening = spaceEnd[0]!;
  const latestStart = opening < n && isBullet(text.charCodeAt(opening)) ? spaceEnd[opening + 1]! : opening;
  for (let start = latestStart; start >= 0; start--) {
    const end = firstEnd[start + 1]!;
    if (end > start + KEY_MAX || end > notInKey[start]!) continue;
    const key = text.slice(start, end);
    return /\s(is|are|was|were)\s/i.test(key) ? null : { key: key.trim(), value: text.slice(valueStart[end]!).trim() };
  }
  return null;
}

/** Each amount of money a fact states (answer-kinds.ts MONEY: "£1,240", "18 pounds", each read once from its start). */
const AMOUNT = new RegExp(MONEY.source, 'gi');
/** Words that link an item to its amount ("Gym membership is £34", "the taxi came to £18"), left out of the item's name. */
const LINKING = new Set([
  'is',
  'are',
  'was',
  'were',
  'cost',
  'costs',
  'costing',
  'at',
  'for',
  'cost me',
  'came to',
  'comes to',
]);
/** A clause opening so is about the writer, not an item ("I spent £20 on lunch"). */
const PRONOUNS = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'it']);

/**
 * The item's name: the words before its amount without the linking words at
 * their end ("" when nothing else is left); null for a clause about the writer.
 */
function itemName(before: string): string | null {
  const words = before.split(' ').filter(Boolean);
  if (PRONOUNS.has(words[0]?.toLowerCase() ?? '')) return null;
  for (;;) {
    const two = words.slice(-2).join(' ').toLowerCase();
    if (words.length >= 2 && LINKING.has(two)) words.splice(-2);
    else if (words.length && LINKING.has(words[words.length - 1]!.toLowerCase())) words.pop();
    else return words.join(' ');
  }
}

/** The text without the full stops and exclamation marks that end it (a loop: /[.!]+$/ rescans a run of them). */
function withoutClosingStops(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || text[end - 1] === '!')) end -= 1;
  return text.slice(0, end);
}

/**
 * The clauses of a text, split at commas and semicolons outside brackets
 * ("(wood, not quartz)" stays whole). A comma inside a number ("£1,240")
 * has no space after it and splits nothing.
 */
function clauses(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[') depth += 1;
    else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
    else if (depth === 0 && (c === ',' || c === ';') && /\s/.test(text[i + 1] ?? '')) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((c) => c.trim()).filter(Boolean);
}

/** A clause naming two priced items joined by "and" ("GardenPro £980 and Oakline £1,410") as two; "fish and chips £12" stays one. */
function pricedParts(clause: string): string[] | null {
  const count = (text: string) => [...text.matchAll(AMOUNT)].length;
  if (count(clause) <= 1) return [clause];
  const parts = clause.split(' and ');
  return parts.every((part) => count(part) === 1) ? parts : null;
}

/**
 * The priced items of a fact that names several ("Fence quotes: Hayes
 * Fencing £1,240, GardenPro £980 and Oakline £1,410"; "Gym membership is £34
 * per month, renews in January"): each clause holding one amount is a row,
 * the words before the amount its item and the amount with what follows its
 * value; a clause without an amount goes on with the row before it, or
 * opens the next one's name ("Fish, chips £12"). An item named by nothing or
 * by linking words alone takes the fact's key ("Rent: was £900"). Null when a clause
 * holds two amounts not joined by "and", an item has no name, or no clause
 * holds an amount.
 */
export function pricedItems(text: string): Array<{ key: string; value: string }> | null {
  const pair = keyValue(text);
  const body = withoutClosingStops(pair?.value ?? text);
  const rows: Array<{ key: string; value: string }> = [];
  let opening = '';
  for (const clause of clauses(body)) {
    const parts = pricedParts(clause);
    if (!parts) return null;
    for (const part of parts) {
      const amount = part.search(AMOUNT);
      if (amount === -1) {
        if (rows.length) rows[rows.length - 1]!.value += `, ${part}`;
        else opening = opening ? `${opening}, ${part}` : part;
        continue;
      }
      const named = itemName([opening, part.slice(0, amount).trim()].filter(Boolean).join(', '));
      opening = '';
      // No words before the amount, or linking words alone ("Rent: was £900"), and the fact's key names it.
      const key = named === null ? null : named || pair?.key;
      if (!key || !/\p{L}/u.test(key) || key.length > KEY_MAX) return null;
      rows.push({ key, value: part.slice(amount).trim() });
    }
  }
  return rows.length ? rows : null;
}

/** A fact's rows: its priced items when it names several, else its key and value, else its amount and what it is. */
function rowsOf(text: string): Array<{ key: string; value: string }> | null {
  const priced = pricedItems(text);
  if (priced && priced.length > 1) return priced;
  const pair = keyValue(text);
  return pair ? [pair] : priced;
}

export function tableOf(facts: readonly CitedFact[], title: string): ArtifactDraft {
  const perFact = facts.map((f) => rowsOf(f.text));
  const structured = perFact.every(Boolean) && perFact.flat().length > 1;
  const header = structured ? ['Item', 'Value', 'Source'] : ['#', 'Fact', 'Source'];
  const rows = structured
    ? facts.flatMap((fact, i) => perFact[i]!.map((row) => [cell(row.key), cell(row.value), cell(sourceLabel(fact))]))
    : facts.map((fact, i) => [String(i + 1), cell(fact.text), cell(sourceLabel(fact))]);
  const content = [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  return { type: 'table', title, content_type: 'text/markdown', content, searchText: `${title}\n${content}` };
}

export function listOf(facts: readonly CitedFact[], title: string): ArtifactDraft {
  const content = [`# ${title}`, '', ...facts.map((f) => `- ${cell(f.text)} (${sourceLabel(f)})`)].join('\n');
  return { type: 'document', title, content_type: 'text/markdown', content, searchText: content };
}

const NUMBER = /(?<![\p{L}\d.])(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*(%|percent\b|per cent\b)?/gu;
const isYear = (raw: string, value: number) => /^\d{4}$/.test(raw) && value >= 1800 && value <= 2100;
const LABEL_WORDS = /[\p{L}][\p{L}\p{N}'-]*/gu;
const FILLER = new Set([
  'the',
  'a',
  'an',
  'of',
  'in',
  'was',
  'were',
  'is',
  'are',
  'to',
  'by',
  'and',
  'at',
  'had',
  'has',
  'have',
  'about',
  'around',
  'approximately',
  'with',
  'for',
  'on',
]);

/** Numbers read from the facts, each labelled by its key or the words before it. */
export function dataPointsOf(facts: readonly CitedFact[]): DataPoint[] {
  const points: DataPoint[] = [];
  for (const fact of facts) {
    const pair = keyValue(fact.text);
    const year = [...fact.text.matchAll(NUMBER)].find((m) => isYear(m[1]!, Number(m[1]!.replace(/,/g, ''))))?.[1];
    let taken = 0;
    for (const m of fact.text.matchAll(NUMBER)) {
      const raw = m[1]!;
      const value = Number(raw.replace(/,/g, ''));
      if (!Number.isFinite(value) || isYear(raw, value) || taken === 3) continue;
      const before = fact.text.slice(0, m.index).match(LABEL_WORDS) ?? [];
      const words = before
        .filter((w) => !FILLER.has(w.toLowerCase()))
        .slice(-3)
        .join(' ');
      const label =
        (pair && taken === 0 ? pair.key : [year, words].filter(Boolean).join(' ')) || fact.title || fact.fileId;
      points.push({ label, value, unit: m[2] ? '%' : null, source: sourceLabel(fact) });
      taken += 1;
    }
  }
  return points;
}

export function chartOf(points: readonly DataPoint[], title: string): ArtifactDraft {
  const unit = points.every((p) => p.unit === '%') ? '%' : null;
  const spec = {
    $schema: VEGA_LITE_SCHEMA,
    title,
    description: 'Built from the numbers in the cited passages of your library.',
    data: { values: points.map((p) => ({ label: p.label, value: p.value, unit: p.unit, source: p.source })) },
    mark: 'bar',
    encoding: {
      x: { field: 'label', type: 'nominal', sort: null, title: null },
      y: { field: 'value', type: 'quantitative', title: unit ? 'percent' : 'value' },
      tooltip: [{ field: 'label' }, { field: 'value' }, { field: 'source' }],
    },
  };
  const searchText = [title, ...points.map((p) => `${p.label}: ${p.value}${p.unit ?? ''} (${p.source})`)].join('\n');
  return {
    type: 'chart',
    title,
    content_type: 'application/vnd.vegalite.v5+json',
    content: JSON.stringify(spec),
    searchText,
  };
}

/**
 * The creation a question asks for, from the cited facts; a chart without
 * numbers to plot becomes a table (and says so).
 */
export function buildArtifact(
  intent: ArtifactIntent,
  question: string,
  facts: readonly CitedFact[],
): { draft: ArtifactDraft; note?: string } | null {
  if (!facts.length) return null;
  const title = artifactTitle(question, intent === 'chart' ? 'Chart' : intent === 'table' ? 'Table' : 'List');
  if (intent === 'list') return { draft: listOf(facts, title) };
  if (intent === 'table') return { draft: tableOf(facts, title) };
  const points = dataPointsOf(facts);
  if (points.length) return { draft: chartOf(points, title) };
  return {
    draft: tableOf(facts, title),
    note: 'The cited passages hold no numbers to chart, so the facts are in a table instead.',
  };
}
