import { afterAll, describe, expect, it } from 'vitest';
import { TesseractOcr } from '../../lambdas/adapters/local/tesseract-ocr.js';
import { FileExtractor } from '../../lambdas/extraction/extractor.js';
import { renderTextPng } from './fixtures.js';

/** Share of reference words found, in order, in the recognized text (longest common subsequence of words). */
export function wordAccuracy(reference: string, recognized: string): number {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const ref = words(reference);
  const hyp = words(recognized);
  const row = new Array<number>(hyp.length + 1).fill(0);
  for (const r of ref) {
    let diagonal = 0;
    for (let j = 1; j <= hyp.length; j += 1) {
      const above = row[j]!;
      row[j] = r === hyp[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[hyp.length]! / ref.length;
}

const PARAGRAPH = [
  'Our quarterly review found that shipping times fell by twelve percent',
  'after the warehouse in Rotterdam moved to the new scanning system.',
  'Invoices 4471 and 4472 were paid on March 3rd, two days early.',
  'The board asked for a second audit of the Lisbon office before June,',
  'and agreed to hire three engineers for the mobile team next year.',
];

describe('tesseract.js OCR (local, English data from node_modules)', () => {
  const ocr = new TesseractOcr({ workers: 1 });
  afterAll(() => ocr.close());

  it('reads rendered text with at least 95% of words right', async () => {
    const png = await renderTextPng(PARAGRAPH, { fontPx: 30, width: 1400 });
    const out = await new FileExtractor({ ocr }).extract({ bytes: png, declaredContentType: 'image/png', filename: 'memo.png' });
    const accuracy = wordAccuracy(PARAGRAPH.join(' '), out.text);
    console.info(`OCR word accuracy: ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    expect(out).toMatchObject({ kind: 'image', ocrPages: 1 });
  });

  it('queues work on a busy pool and drops a job whose signal fired while it waited', async () => {
    const png = await renderTextPng(['Queued words'], { width: 500 });
    const image = { png, width: 500, height: 100 };
    const running = ocr.recognize(image);
    const cancelled = new AbortController();
    const waiting = ocr.recognize(image, { signal: cancelled.signal });
    cancelled.abort(new Error('budget spent'));
    await expect(waiting).rejects.toThrow('budget spent');
    expect((await running).text).toMatch(/Queued words/);
  });
});

describe('wordAccuracy', () => {
  it('counts words in order and ignores case and punctuation', () => {
    expect(wordAccuracy('The cat sat.', 'the cat sat')).toBe(1);
    expect(wordAccuracy('one two three four', 'one too three four')).toBe(0.75);
    expect(wordAccuracy('one two', '')).toBe(0);
  });
});
