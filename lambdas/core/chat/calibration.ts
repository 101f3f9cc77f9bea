import type { Embedder } from '../ports.js';
import { CALIBRATION_PAIRS } from './calibration-pairs.js';

/**
 * Where an embedder's cosines fall: the median cosine of a question and the
 * passage that answers it (`related`), and of a question and passages about
 * other things (`unrelated`), over the fixed calibration set
 * (calibration-pairs.ts). Embedders differ in scale: unrelated texts score
 * about 0.1 with one and 0.7 with another. The relevance gate's bars are
 * written on the reference embedder's scale (REFERENCE_SCALE) and every
 * cosine is mapped onto it first (`onReferenceScale`).
 */
export interface CosineScale {
  related: number;
  unrelated: number;
}

/**
 * The scale the gate's bars were tuned on: Universal Sentence Encoder lite,
 * the offline default, measured by `measureCosineScale` (docs/chat.md).
 */
export const REFERENCE_SCALE: CosineScale = { related: 0.4733, unrelated: 0.0874 };

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

/** Embeds the calibration set (questions as queries, passages as passages) and reads the embedder's scale off it. */
export async function measureCosineScale(embedder: Embedder): Promise<{ scale: CosineScale; tokens: number }> {
  const questions = await embedder.embed(
    CALIBRATION_PAIRS.map(([q]) => q),
    'query',
  );
  const passages = await embedder.embed(
    CALIBRATION_PAIRS.map(([, p]) => p),
    'passage',
  );
  const related: number[] = [];
  const unrelated: number[] = [];
  questions.vectors.forEach((q, i) => {
    passages.vectors.forEach((p, j) => (i === j ? related : unrelated).push(cosine(q, p)));
  });
  return {
    scale: { related: median(related), unrelated: median(unrelated) },
    tokens: questions.tokens + passages.tokens,
  };
}

/**
 * A cosine of an embedder with `scale`, mapped onto the reference scale: the
 * affine map that sends its unrelated and related medians onto the
 * reference's. Without a scale (an embedder never measured), the cosine as
 * it is.
 */
export function onReferenceScale(
  cosine: number,
  scale: CosineScale | undefined,
  reference: CosineScale = REFERENCE_SCALE,
): number {
  if (!scale || scale.related <= scale.unrelated) return cosine;
  const t = (cosine - scale.unrelated) / (scale.related - scale.unrelated);
  return reference.unrelated + t * (reference.related - reference.unrelated);
}
