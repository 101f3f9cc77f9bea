import type { TokenCounter } from '../../ports.js';

/**
 * Token counts as Bedrock reports them: the embedder tells this counter how
 * many input tokens Titan counted for each text it embedded, and the core
 * asks for the texts it charges. Titan's own count, so no tokenizer ships in
 * a Lambda. Entries are consumed when counted; the oldest are dropped past a
 * bound so texts embedded but never charged (search queries) cannot pile up.
 */
export class ReportedTokenCounter implements TokenCounter {
  readonly name = 'bedrock-reported';
  private readonly reported = new Map<string, number[]>();
  private size = 0;

  constructor(private readonly maxEntries = 10_000) {}

  /** Called by the embedder for each text it embedded. */
  record(text: string, tokens: number): void {
    const counts = this.reported.get(text) ?? [];
    counts.push(tokens);
    this.reported.delete(text); // re-insert: the Map's order is the age order
    this.reported.set(text, counts);
    this.size += 1;
    while (this.size > this.maxEntries) {
      const [oldest, oldestCounts] = this.reported.entries().next().value as [string, number[]];
      oldestCounts.shift();
      this.size -= 1;
      if (!oldestCounts.length) this.reported.delete(oldest);
    }
  }

  async count(texts: readonly string[]): Promise<number> {
    let total = 0;
    for (const text of texts) {
      const counts = this.reported.get(text);
      if (!counts?.length) continue;
      total += counts.shift()!;
      this.size -= 1;
      if (!counts.length) this.reported.delete(text);
    }
    return total;
  }
}
