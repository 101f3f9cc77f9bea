/**
 * Counts the tokens a model reads for texts it did not report on (the local
 * answerer's prompt and reply): the offline embedder's own tokenizer
 * (EmbedderPool) or o200k_base. Local only: the core charges what models report.
 */
export interface TokenCounter {
  readonly name: string;
  count(texts: readonly string[]): Promise<number>;
}

/**
 * Token counting with a real BPE tokenizer (OpenAI's o200k_base, via
 * gpt-tokenizer), for models that report no counts of their own and have no
 * tokenizer at hand (an OpenAI-compatible server that omits usage). Its
 * tables take about 70 MB, so they load on the first count, not at start.
 * Never in a Lambda bundle: on AWS the models report their own counts.
 */
let encoder: Promise<(text: string) => number> | undefined;
const loadEncoder = () => (encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens));

export async function countTokens(text: string): Promise<number> {
  return text ? (await loadEncoder())(text) : 0;
}

export class O200kTokenCounter implements TokenCounter {
  readonly name = 'o200k_base';
  async count(texts: readonly string[]): Promise<number> {
    let total = 0;
    for (const text of texts) total += await countTokens(text);
    return total;
  }
}
