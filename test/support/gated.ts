import type { Embedder, TextExtractor } from '../../lambdas/core/ports.js';

/**
 * A gate for the request-budget tests: the first `holds` calls wait until
 * `open()` (as a hung embedder or a slow OCR would), later calls go through.
 */
export class Gate {
  private release!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.release = resolve));
  held = 0;
  /** Calls that came back after the gate opened (the abandoned work finishing). */
  finishedLate = 0;

  constructor(private holds = 1) {}

  async pass<T>(work: () => Promise<T>): Promise<T> {
    if (this.holds > 0) {
      this.holds -= 1;
      this.held += 1;
      await this.opened;
      const value = await work();
      this.finishedLate += 1;
      return value;
    }
    return work();
  }

  open(): void {
    this.release();
  }
}

/** An embedder whose first passage embedding hangs until the gate opens. */
export function gatedEmbedder(inner: Embedder, gate: Gate): Embedder {
  return {
    name: inner.name,
    dimensions: inner.dimensions,
    embed: (texts, purpose) =>
      purpose === 'passage' ? gate.pass(() => inner.embed(texts, purpose)) : inner.embed(texts, purpose),
  };
}

/** An extractor whose first extraction hangs until the gate opens. */
export function gatedExtractor(inner: TextExtractor, gate: Gate): TextExtractor {
  return {
    isSlowWork: (bytes) => inner.isSlowWork(bytes),
    extract: (input) => gate.pass(() => inner.extract(input)),
  };
}
