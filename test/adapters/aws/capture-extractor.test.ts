import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileExtractor } from '../../../lambdas/adapters/extraction/extractor.js';
import { IsolatedExtractor } from '../../../lambdas/adapters/extraction/isolation/isolated-extractor.js';
import { convertImage, makeDocx, makePdf, renderTextPng } from '../../extraction/fixtures.js';

const INLINE_MAX = 1 << 20;
// What captureExtractor() builds on AWS (wiring/aws/extractors.ts), here from the TypeScript sources.
const inline = new IsolatedExtractor({ mode: 'text', limits: { inlineMaxBytes: INLINE_MAX } });
afterAll(() => inline.close());
const extract = (text: string | Buffer, declaredContentType = 'text/plain', filename = 'f.txt') =>
  inline.extract(
    { bytes: typeof text === 'string' ? Buffer.from(text) : text, declaredContentType, filename },
    { request: { signal: new AbortController().signal } },
  );

const ZIP_NOT_DOCX = Buffer.from(zipSync({ 'notes.txt': Buffer.from('hello inside a zip') }));
let samples: Array<[string, Uint8Array, boolean]>;

beforeAll(async () => {
  const png = await renderTextPng(['slow work'], { width: 300 });
  samples = [
    ['plain text', Buffer.from('hello\nworld'), false],
    ['HTML', Buffer.from('<!doctype html><html><body><p>x</p></body></html>'), false],
    ['a PDF', await makePdf([{ text: 'a page' }]), true],
    ['a DOCX', await makeDocx(), true],
    ['a PNG', png, true],
    ['a JPEG', await convertImage(png, 'jpeg'), true],
    ['an archive that is not a DOCX', ZIP_NOT_DOCX, false],
    ['text over the inline size', Buffer.alloc(INLINE_MAX + 1, 'a'), true],
    ['text of exactly the inline size', Buffer.alloc(INLINE_MAX, 'a'), false],
  ];
}, 30_000);

describe("the capture functions' extractor (text formats only, read in a reader thread)", () => {
  it('reads plain text, Markdown and HTML (visible text) like the full pipeline', async () => {
    expect(await extract('hello\nworld')).toMatchObject({
      text: 'hello\nworld',
      kind: 'file',
      contentType: 'text/plain',
      ocrPages: 0,
    });
    expect(
      (
        await extract(
          '<!doctype html><html><body><p>Visible</p><script>x()</script></body></html>',
          'text/html',
          'a.html',
        )
      ).text,
    ).toContain('Visible');
  });

  it('refuses at once what is neither text nor queued work (an archive that is not a DOCX)', async () => {
    expect(await inline.isSlowWork(ZIP_NOT_DOCX)).toBe(false);
    await expect(extract(ZIP_NOT_DOCX, 'application/zip', 'a.zip')).rejects.toMatchObject({
      rejectCode: 'unsupported_type',
    });
  });

  it('decides slow work exactly as the full pipeline does for the same inline size: PDFs, DOCX, images and large files are queued', async () => {
    const full = new FileExtractor({
      ocr: { name: 'none', recognize: () => Promise.reject(new Error('no OCR here')) },
      limits: { inlineMaxBytes: INLINE_MAX },
    });
    for (const [what, bytes, slow] of samples) {
      expect(await inline.isSlowWork(bytes), what).toBe(slow);
      expect(await full.isSlowWork(bytes), what).toBe(slow);
    }
  });
});
