/**
 * BEIR SciFact, read in place (never copied into the repo).
 *
 *   loadScifact(split)       -> { corpus, queries, qrels } for 'train' or 'test':
 *     corpus   every abstract: { id, title, text }
 *     queries  only the queries judged in that split: { id, text }
 *     qrels    query id -> (document id -> relevance grade)
 *   documentText(doc)        -> the text the benchmarks capture: title line, blank line, abstract
 *                               (a document's own text starts with its title, as a real file would)
 *   captureCorpus(stack, ref, corpus)
 *                            -> captures every abstract (documentText, its title, its id as source_ref),
 *                               throws on any refusal, waits for every passage's vector (stack.settled);
                               returns file id -> SciFact document id
 *   claimsIn(corpus, queries, qrels)
 *                            -> the queries (claims) with at least one judged document in the corpus
 *   scifactDir()             -> where the data is read from: $SCIFACT_DIR (corpus.jsonl, queries.jsonl, qrels/)
 *
 * Tune on 'train', report on 'test'.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureService } from '../../lambdas/core/capture.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { dataSetDir } from './data-dir.js';

export const scifactDir = () => dataSetDir('SCIFACT_DIR', 'BEIR SciFact (corpus.jsonl, queries.jsonl, qrels/)');

export interface ScifactDoc {
  id: string;
  title: string;
  text: string;
}

export interface ScifactQuery {
  id: string;
  text: string;
}

/** query id -> (document id -> grade). */
export type Qrels = Map<string, Map<string, number>>;

export interface Scifact {
  corpus: ScifactDoc[];
  queries: ScifactQuery[];
  qrels: Qrels;
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

export function loadQrels(split: 'train' | 'test', dir = scifactDir()): Qrels {
  const qrels: Qrels = new Map();
  const lines = readFileSync(join(dir, 'qrels', `${split}.tsv`), 'utf8')
    .split('\n')
    .slice(1);
  for (const line of lines) {
    const [qid, docId, grade] = line.trim().split('\t');
    if (!qid || !docId) continue;
    const judged = qrels.get(qid) ?? new Map<string, number>();
    judged.set(docId, Number(grade));
    qrels.set(qid, judged);
  }
  return qrels;
}

export function loadCorpus(dir = scifactDir()): ScifactDoc[] {
  return readJsonl<{ _id: string; title?: string; text?: string }>(join(dir, 'corpus.jsonl')).map((d) => ({
    id: d._id,
    title: (d.title ?? '').trim(),
    text: (d.text ?? '').trim(),
  }));
}

export function loadScifact(split: 'train' | 'test', dir = scifactDir()): Scifact {
  const qrels = loadQrels(split, dir);
  const queries = readJsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl'))
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { corpus: loadCorpus(dir), queries, qrels };
}

export const documentText = (doc: ScifactDoc): string => (doc.title ? `${doc.title}\n\n${doc.text}` : doc.text);

/**
 * Captures every abstract through the capture use case, one after another, as
 * a user pushing each paper would: documentText(doc) as the text, the title as
 * the title, the SciFact id as source_ref. Any capture that is not ok throws.
 * Returns file id -> SciFact document id, to score what search and chat return.
 */
export async function captureCorpus(
  stack: { services: { capture: Pick<CaptureService, 'capture'> }; settled?: () => Promise<void> },
  ref: LibraryRef,
  corpus: readonly ScifactDoc[],
): Promise<Map<string, string>> {
  const docOfFile = new Map<string, string>();
  for (const doc of corpus) {
    const receipt = await stack.services.capture.capture(ref, {
      text: documentText(doc),
      title: doc.title || undefined,
      sourceRef: doc.id,
    });
    if (!receipt.ok || !receipt.id) throw new Error(`capture of ${doc.id} failed: ${receipt.detail}`);
    docOfFile.set(receipt.id, doc.id);
  }
  // A capture's passages are embedded by the ingestion drain after its receipt:
  // wait for every vector, so the meaning leg sees the whole corpus.
  await stack.settled?.();
  return docOfFile;
}

/** The queries (claims) with at least one judged document in the corpus: on part of the corpus, the others cannot be answered. */
export function claimsIn(
  corpus: readonly ScifactDoc[],
  queries: readonly ScifactQuery[],
  qrels: Qrels,
): ScifactQuery[] {
  const inCorpus = new Set(corpus.map((d) => d.id));
  return queries.filter((q) => [...(qrels.get(q.id)?.keys() ?? [])].some((id) => inCorpus.has(id)));
}
