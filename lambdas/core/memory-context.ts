import { decodeTime } from 'ulid';
import type { IndexItem } from './model.js';

/**
 * A conversation's turns, a chat log's lines, a day's quick notes: short
 * memories often make sense only beside the ones captured around them.
 * "Alright, see you tomorrow!" answers "When did Joanna plan to visit Nate?"
 * only through the turns before it, which name Joanna, Nate and the visit.
 *
 * So the keyword leg reads each short memory with its neighbours: the texts
 * of up to `neighbours` short memories captured just before and just after
 * it in the same library, in the same sitting (no gap over `maxGapMs`
 * between consecutive ones), go in a context field that BM25 weighs below
 * the memory's own words. A memory that matches by its own words still
 * outranks one that only sits beside the match. Results, snippets and grep
 * show only a memory's own text; the context is derived, never stored as
 * the memory's content, and is rewritten whenever a neighbour arrives or
 * leaves (a deleted memory's words do not live on in its neighbours').
 *
 * Tuned on the LoCoMo conversations (docs/search-quality.md): the keyword
 * leg's hit@10 went from 70.7% to 81.5%, the hybrid's from 73.5% to 82.9%.
 * Long documents (more than one passage) neither get nor give context: an
 * abstract holds its own subject.
 */
export const MEMORY_CONTEXT = {
  /** Short memories read on each side. */
  neighbours: 2,
  /** BM25 weight of the context field (the memory's body counts 1, its title 3). */
  weight: 0.7,
  /** Consecutive memories captured further apart than this are of different sittings. */
  maxGapMs: 30 * 60_000,
} as const;

/** A memory that gets and gives context: a text document short enough to be one passage. */
export const isShortMemory = (item: Pick<IndexItem, 'kind' | 'passages'>): boolean =>
  item.kind === 'file_excerpt' && item.passages.length === 1;

export interface ContextMemory {
  /** A prefixed ULID (`file_...`): its time is the capture time, its order the capture order. */
  itemId: string;
  text: string;
}

/** The capture time of an item id (a prefixed ULID); NaN for an id that is not one. */
function capturedAt(itemId: string): number {
  try {
    return decodeTime(itemId.slice(itemId.indexOf('_') + 1));
  } catch {
    return Number.NaN;
  }
}

/**
 * The context of `sequence[index]`: the texts of up to `neighbours` memories
 * on each side, nearest first outward, stopping at a gap between sittings
 * (an id without a time counts as one). `sequence` is a run of one
 * library's short memories in capture order. Only the times compared are
 * decoded: rewriting a whole library's contexts stays linear.
 */
export function contextOf(
  sequence: readonly ContextMemory[],
  index: number,
  rule: typeof MEMORY_CONTEXT = MEMORY_CONTEXT,
): string {
  const time = (i: number) => capturedAt(sequence[i]!.itemId);
  const texts: string[] = [];
  for (const step of [-1, 1]) {
    for (
      let i = index + step, taken = 0;
      taken < rule.neighbours && i >= 0 && i < sequence.length;
      i += step, taken++
    ) {
      if (!(Math.abs(time(i) - time(i - step)) <= rule.maxGapMs)) break;
      texts.push(sequence[i]!.text);
    }
  }
  return texts.join('\n');
}

/**
 * Short memories an index reads on each side of a place in capture order to
 * rewrite the contexts a change there touches: each touched memory needs its
 * own neighbours on both sides.
 */
export const CONTEXT_READ_EACH_SIDE = 2 * MEMORY_CONTEXT.neighbours;

/**
 * The contexts a change at one place in capture order touches, each with its
 * memory: those within MEMORY_CONTEXT.neighbours of the place, `at` included.
 * `before` and `after` are the library's short memories on either side of it
 * in capture order (up to CONTEXT_READ_EACH_SIDE each); `at` is the memory at
 * the place (one that arrives, or stays), null when the memory there left.
 */
export function contextsAround<M extends ContextMemory>(
  before: readonly M[],
  at: M | null,
  after: readonly M[],
): Array<{ memory: M; context: string }> {
  const sequence = [...before, ...(at ? [at] : []), ...after];
  const reach = MEMORY_CONTEXT.neighbours;
  const end = Math.min(sequence.length, before.length + (at ? 1 : 0) + reach);
  const touched: Array<{ memory: M; context: string }> = [];
  for (let i = Math.max(0, before.length - reach); i < end; i++)
    touched.push({ memory: sequence[i]!, context: contextOf(sequence, i) });
  return touched;
}

/** Every context of a library's short memories, given all of them in capture order. */
export function allContexts<M extends ContextMemory>(sequence: readonly M[]): Array<{ memory: M; context: string }> {
  return sequence.map((memory, i) => ({ memory, context: contextOf(sequence, i) }));
}
