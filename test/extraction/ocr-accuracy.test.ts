import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { FileExtractor } from '../../lambdas/adapters/extraction/extractor.js';
import { TesseractOcr } from '../../lambdas/adapters/local/tesseract-ocr.js';
import { makePdf, renderTextPng } from './fixtures.js';
import { wordAccuracy } from './word-accuracy.js';

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
    const out = await new FileExtractor({ ocr }).extract({
      bytes: png,
      declaredContentType: 'image/png',
      filename: 'memo.png',
    });
    const accuracy = wordAccuracy(PARAGRAPH.join(' '), out.text);
    console.info(`OCR word accuracy: ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    expect(out).toMatchObject({ kind: 'image', ocrPages: 1 });
  });

  it('reads a photo-like picture (tilted 2.5°, low contrast, blurred, JPEG q45) with at least 95% of words right', async () => {
    const png = await renderTextPng(PARAGRAPH, { fontPx: 30, width: 1400 });
    const photo = await sharp(png)
      .rotate(2.5, { background: '#dddddd' })
      .linear(0.75, 40)
      .blur(0.8)
      .jpeg({ quality: 45 })
      .toBuffer();
    const out = await new FileExtractor({ ocr }).extract({
      bytes: photo,
      declaredContentType: 'image/jpeg',
      filename: 'photo.jpg',
    });
    const accuracy = wordAccuracy(PARAGRAPH.join(' '), out.text);
    console.info(`OCR word accuracy, photo-like JPEG: ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
  });

  it('reads a scanned PDF page (rendered at the OCR resolution) with at least 95% of words right', async () => {
    // A page-wide scan: the picture is fitted to an A4 page, text about 11 pt once printed.
    const scan = await renderTextPng(PARAGRAPH, { fontPx: 30, width: 1400 });
    const pdf = await makePdf([{ image: scan }]);
    const out = await new FileExtractor({ ocr }).extract({
      bytes: pdf,
      declaredContentType: 'application/pdf',
      filename: 'scan.pdf',
    });
    const accuracy = wordAccuracy(PARAGRAPH.join(' '), out.text);
    console.info(`OCR word accuracy, scanned PDF page: ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    expect(out).toMatchObject({ kind: 'file', pageCount: 1, ocrPages: 1 });
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
