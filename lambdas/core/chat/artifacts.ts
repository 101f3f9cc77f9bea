import { artifactTitle, type ArtifactIntent } from './intent.js';

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

/** "Key: value", "Key = value" or "Key — value" (a short key). */
function keyValue(text: string): { key: string; value: string } | null {
  const m = /^\s*[-*•]?\s*([^:=—]{1,60}?)\s*(?::|=|—|–)\s+(.+)$/.exec(text);
  return m && !/\s(is|are|was|were)\s/i.test(m[1]!) ? { key: m[1]!.trim(), value: m[2]!.trim() } : null;
}

export function tableOf(facts: readonly CitedFact[], title: string): ArtifactDraft {
  const pairs = facts.map((f) => keyValue(f.text));
  const structured = facts.length > 1 && pairs.every(Boolean);
  const header = structured ? ['Item', 'Value', 'Source'] : ['#', 'Fact', 'Source'];
  const rows = facts.map((fact, i) =>
    structured ? [cell(pairs[i]!.key), cell(pairs[i]!.value), cell(sourceLabel(fact))] : [String(i + 1), cell(fact.text), cell(sourceLabel(fact))],
  );
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
const FILLER = new Set(['the', 'a', 'an', 'of', 'in', 'was', 'were', 'is', 'are', 'to', 'by', 'and', 'at', 'had', 'has', 'have', 'about', 'around', 'approximately', 'with', 'for', 'on']);

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
      const words = before.filter((w) => !FILLER.has(w.toLowerCase())).slice(-3).join(' ');
      const label = (pair && taken === 0 ? pair.key : [year, words].filter(Boolean).join(' ')) || fact.title || fact.fileId;
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
  return { type: 'chart', title, content_type: 'application/vnd.vegalite.v5+json', content: JSON.stringify(spec), searchText };
}

/**
 * The creation a question asks for, from the cited facts; a chart without
 * numbers to plot becomes a table (and says so).
 */
export function buildArtifact(intent: ArtifactIntent, question: string, facts: readonly CitedFact[]): { draft: ArtifactDraft; note?: string } | null {
  if (!facts.length) return null;
  const title = artifactTitle(question, intent === 'chart' ? 'Chart' : intent === 'table' ? 'Table' : 'List');
  if (intent === 'list') return { draft: listOf(facts, title) };
  if (intent === 'table') return { draft: tableOf(facts, title) };
  const points = dataPointsOf(facts);
  if (points.length) return { draft: chartOf(points, title) };
  return { draft: tableOf(facts, title), note: 'The cited passages hold no numbers to chart, so the facts are in a table instead.' };
}
