import { describe, expect, it } from 'vitest';
import { InlineTextExtractor } from '../../../lambdas/wiring/aws/inline-extractor.js';
import { isSlowWork } from '../../../lambdas/core/ingest.js';

const extract = (text: string | Buffer, declaredContentType = 'text/plain', filename = 'f.txt') =>
  new InlineTextExtractor().extract({ bytes: typeof text === 'string' ? Buffer.from(text) : text, declaredContentType, filename });

describe('InlineTextExtractor (the API functions read text formats in the request)', () => {
  it('reads plain text, Markdown and HTML (visible text) like the full pipeline', async () => {
    expect(await extract('hello\nworld')).toMatchObject({ text: 'hello\nworld', kind: 'file', contentType: 'text/plain', ocrPages: 0 });
    expect((await extract('<!doctype html><html><body><p>Visible</p><script>x()</script></body></html>', 'text/html', 'a.html')).text).toContain('Visible');
  });

  it('refuses at once what is neither text nor queued work (an archive that is not a DOCX)', async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.from('notes/readme.txt')]);
    expect(isSlowWork(zip, 1 << 20)).toBe(false);
    await expect(extract(zip, 'application/zip', 'a.zip')).rejects.toMatchObject({ rejectCode: 'unsupported_type' });
  });

  it('never sees PDFs or images: the core queues them', () => {
    expect(isSlowWork(Buffer.from('%PDF-1.4 ...'), 1 << 20)).toBe(true);
    expect(isSlowWork(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 1 << 20)).toBe(true);
    expect(isSlowWork(Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.from('word/document.xml')]), 1 << 20)).toBe(true);
  });
});
