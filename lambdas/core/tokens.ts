import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token counting for spend: a real BPE tokenizer (OpenAI's o200k_base, via
 * gpt-tokenizer), used wherever a backend does not report its own count
 * (embeddings, the offline answerer, a model that returns no usage).
 */
export const TOKENIZER_NAME = 'o200k_base';

export const countTokens = (text: string): number => (text ? countO200k(text) : 0);

export const countAllTokens = (texts: readonly string[]): number => texts.reduce((sum, t) => sum + countTokens(t), 0);
