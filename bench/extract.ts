/**
 * Extraction benchmark (local stack): text-layer PDF pages per second, and
 * seconds per OCR page (scanned PDF pages and photos through the tesseract.js
 * pool). Fixtures are made here in code. Run: npm run bench:extract
 */

import { FileExtractor } from '../lambdas/adapters/extraction/extractor.js';
import { TesseractOcr } from '../lambdas/adapters/local/tesseract-ocr.js';
import { makeDocx, makePdf, renderTextPng } from '../test/extraction/fixtures.js';
import { machineLine } from './lib/machine.js';

const SENTENCES = [
  'The quarterly review found that shipping times fell after the new scanning system went live.',
  'Invoices were paid early, and the board asked for a second audit of the regional office.',
  'Engineers moved the sync service to a smaller bundle, which cut cold starts in half.',
  'Customer interviews pointed to search as the feature people use every single day.',
];
const pageText = (n: number) =>
  Array.from({ length: 40 }, (_, i) => `${n}.${i + 1} ${SENTENCES[(n + i) % SENTENCES.length]}`).join('\n');

async function time<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const result = await work();
  return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const ocr = new TesseractOcr();
const extractor = new FileExtractor({ ocr });
const extract = (bytes: Uint8Array, type: string) =>
  extractor.extract({ bytes, declaredContentType: type, filename: 'bench' });

console.log(`extraction benchmark: ${ocr.size} OCR workers`);
console.log(machineLine());

// Text-layer PDF: 100 pages of 40 lines, best of 3 runs.
const textPdf = await makePdf(Array.from({ length: 100 }, (_, i) => ({ text: pageText(i + 1) })));
await extract(textPdf, 'application/pdf');
const textRuns = [];
for (let i = 0; i < 3; i += 1) textRuns.push((await time(() => extract(textPdf, 'application/pdf'))).seconds);
const best = Math.min(...textRuns);
console.log(
  `text PDF      100 pages (${(textPdf.length / 1024).toFixed(0)} KiB): ${best.toFixed(2)} s  →  ${(100 / best).toFixed(0)} pages/s`,
);

// DOCX, for scale.
const docx = await makeDocx();
const docxRun = await time(async () => {
  for (let i = 0; i < 20; i += 1) await extract(docx, 'application/octet-stream');
});
console.log(`DOCX          20 files: ${((docxRun.seconds / 20) * 1000).toFixed(0)} ms per file`);

// OCR: warm the pool first (worker start-up is paid once per process, not per page).
const scan = await renderTextPng(
  SENTENCES.map((s) => s.slice(0, 60)),
  { fontPx: 28, width: 1200 },
);
const warm = await time(() => Promise.all(Array.from({ length: ocr.size }, () => extract(scan, 'image/png'))));
console.log(
  `OCR warm-up   ${ocr.size} photos at once, incl. starting ${ocr.size} workers: ${warm.seconds.toFixed(2)} s`,
);

const photoRuns = await time(async () => {
  for (let i = 0; i < 3; i += 1) await extract(scan, 'image/png');
});
console.log(
  `OCR photo     3 photos one after another (one worker busy): ${(photoRuns.seconds / 3).toFixed(2)} s per OCR page`,
);

const scannedPages = 6;
const scannedPdf = await makePdf(Array.from({ length: scannedPages }, () => ({ image: scan })));
const scanned = await time(() => extract(scannedPdf, 'application/pdf'));
console.log(
  `OCR scan PDF  ${scannedPages} scanned pages (render at 200 dpi, OCR on the pool): ${(scanned.seconds / scannedPages).toFixed(2)} s per OCR page (ocrPages=${scanned.result.ocrPages})`,
);

const parallel = await time(() => Promise.all(Array.from({ length: 4 }, () => extract(scan, 'image/png'))));
console.log(
  `OCR parallel  4 photos at once on ${ocr.size} workers: ${(parallel.seconds / 4).toFixed(2)} s per OCR page (throughput)`,
);

await ocr.close();
