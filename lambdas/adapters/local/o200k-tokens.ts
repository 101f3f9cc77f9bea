import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenCounter } from '../../ports.js';

/**
 * Token counting with a real BPE tokenizer (OpenAI's o200k_base, via
 * gpt-tokenizer), for the local models, which report no counts of their own.
 * Never in a Lambda bundle: on AWS the models report their own counts.
 */
export const countTokens = (text: string): number => (text ? countO200k(text) : 0);

export class O200kTokenCounter implements TokenCounter {
  readonly name = 'o200k_base';
  count(texts: readonly string[]): number {
    return texts.reduce((sum, t) => sum + countTokens(t), 0);
  }
}
