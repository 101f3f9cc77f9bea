import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FileExtractor } from '../../lambdas/adapters/extraction/extractor.js';
import { RecordingOcr } from './fake-ocr.js';
import { convertImage, makeDocx, makePdf, renderTextPng } from './fixtures.js';
import { expectReject } from './reject.js';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

describe('PDF', () => {
  it('reads the text layer page by page without OCR', async () => {
    const ocr = new RecordingOcr();
    const pdf = await makePdf([{ text: 'Alpha line one\nAlpha line two' }, { text: 'Beta page text' }]);
    const out = await new FileExtractor({ ocr }).extract({
      bytes: pdf,
      declaredContentType: 'application/octet-stream',
      filename: 'x.bin',
    });
    expect(out).toMatchObject({ kind: 'file', contentType: 'application/pdf', pageCount: 2, ocrPages: 0 });
    expect(out.text).toBe('Alpha line one\nAlpha line two\n\nBeta page text');
    expect(ocr.images).toHaveLength(0);
  });

  it('renders and OCRs only the pages that draw but carry no text; blank pages cost nothing', async () => {
    const ocr = new RecordingOcr('scanned page words');
    const scan = await renderTextPng(['a scanned page']);
    const pdf = await makePdf([
      { text: 'Typed first page' },
      { image: scan },
      { blank: true },
      { text: 'Typed last page' },
    ]);
    const out = await new FileExtractor({ ocr }).extract({
      bytes: pdf,
      declaredContentType: 'application/pdf',
      filename: 'mixed.pdf',
    });
    expect(out).toMatchObject({ pageCount: 4, ocrPages: 1 });
    expect(out.text).toBe('Typed first page\n\nscanned page words\n\nTyped last page');
    expect(ocr.images).toHaveLength(1);
    const meta = await sharp(ocr.images[0]!.png).metadata();
    expect(meta.format).toBe('png');
    // A4 at 200 dpi.
    expect(meta.height).toBeGreaterThan(2000);
  });

  it('hands a PDF with several scanned pages to a whole-document OCR job when one is configured, billing every page', async () => {
    const scan = await renderTextPng(['scan']);
    const pdf = await makePdf([{ text: 'Typed page' }, { image: scan }, { image: scan }]);
    const jobs: Uint8Array[] = [];
    const pdfOcr = {
      readPdf: async (bytes: Uint8Array) => (
        jobs.push(bytes), { pages: ['typed (ignored)', 'job page two', 'job page three'] }
      ),
    };
    const ocr = new RecordingOcr();
    const out = await new FileExtractor({ ocr, pdfOcr }).extract({
      bytes: pdf,
      declaredContentType: 'application/pdf',
      filename: 'scan.pdf',
    });
    expect(out).toMatchObject({ text: 'Typed page\n\njob page two\n\njob page three', pageCount: 3, ocrPages: 3 });
    expect(jobs).toHaveLength(1);
    expect(ocr.images).toHaveLength(0);
  });

  it('reads a single scanned page page-by-page even when a whole-document OCR job is configured', async () => {
    const pdf = await makePdf([{ text: 'Typed page' }, { image: await renderTextPng(['scan']) }]);
    const pdfOcr = { readPdf: async () => expect.fail('no job for one page') };
    const ocr = new RecordingOcr('page words');
    const out = await new FileExtractor({ ocr, pdfOcr }).extract({
      bytes: pdf,
      declaredContentType: 'application/pdf',
      filename: 'scan.pdf',
    });
    expect(out).toMatchObject({ text: 'Typed page\n\npage words', ocrPages: 1 });
  });

  it('refuses a PDF needing more OCR pages than the cap', async () => {
    const scan = await renderTextPng(['scan']);
    const pdf = await makePdf([{ image: scan }, { image: scan }, { image: scan }]);
    const capped = new FileExtractor({ ocr: new RecordingOcr(), limits: { maxOcrPages: 2 } });
    await expectReject(
      capped.extract({ bytes: pdf, declaredContentType: 'application/pdf', filename: 'scan.pdf' }),
      'too_large',
    );
  });

  it('yields no text for a PDF of blank pages (the core rejects it empty_content)', async () => {
    const out = await new FileExtractor({ ocr: new RecordingOcr() }).extract({
      bytes: await makePdf([{ blank: true }]),
      declaredContentType: 'application/pdf',
      filename: 'b.pdf',
    });
    expect(out.text).toBe('');
  });
});

describe('DOCX', () => {
  it('reads headings, paragraphs and table rows as lines', async () => {
    const out = await new FileExtractor({ ocr: new RecordingOcr() }).extract({
      bytes: await makeDocx(),
      declaredContentType: 'application/msword',
      filename: 'r.docx',
    });
    expect(out.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(lines(out.text)).toEqual([
      'Quarterly report',
      'Revenue grew in the third quarter at Zentrix.',
      'Regional sales',
      'Region      Sales',
      'Northwind   120',
      'Prepared by the finance team.',
    ]);
  });
});

describe('images', () => {
  it.each(['png', 'jpeg', 'tiff', 'webp', 'gif'] as const)(
    'OCRs a %s as kind image, one page of spend',
    async (format) => {
      const ocr = new RecordingOcr('words in a photo');
      const png = await renderTextPng(['photo of a receipt'], { width: 600 });
      const bytes = format === 'png' ? png : await convertImage(png, format);
      const out = await new FileExtractor({ ocr }).extract({
        bytes,
        declaredContentType: 'application/octet-stream',
        filename: 'img',
      });
      expect(out).toMatchObject({
        kind: 'image',
        contentType: `image/${format}`,
        ocrPages: 1,
        text: 'words in a photo',
      });
      // Small pictures are enlarged for OCR; every format reaches the engine as a grey PNG.
      const meta = await sharp(ocr.images[0]!.png).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 1000 });
      expect(meta.channels).toBeLessThanOrEqual(2);
    },
  );

  it('OCRs every page of a multi-page TIFF', async () => {
    const ocr = new RecordingOcr('page words');
    const pages = await Promise.all([renderTextPng(['one']), renderTextPng(['two'])]);
    const tiff = await sharp(pages, { join: { animated: true } })
      .tiff()
      .toBuffer();
    const out = await new FileExtractor({ ocr }).extract({
      bytes: tiff,
      declaredContentType: 'image/tiff',
      filename: 'scan.tiff',
    });
    expect(out).toMatchObject({ kind: 'image', pageCount: 2, ocrPages: 2 });
  });

  it('refuses a truncated image as extraction_failed', async () => {
    const jpeg = await convertImage(await renderTextPng(['cut off']), 'jpeg');
    await expectReject(
      new FileExtractor({ ocr: new RecordingOcr() }).extract({
        bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
        declaredContentType: 'image/jpeg',
        filename: 'a.jpg',
      }),
      'extraction_failed',
    );
  });

  it('refuses an image with more pixels than the limit as too_large', async () => {
    const big = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const capped = new FileExtractor({ ocr: new RecordingOcr(), limits: { maxImagePixels: 4_000_000 } });
    await expectReject(
      capped.extract({ bytes: big, declaredContentType: 'image/png', filename: 'big.png' }),
      'too_large',
    );
  });
});
