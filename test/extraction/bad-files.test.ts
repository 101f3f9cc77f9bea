import CFB from 'cfb';
import { gzipSync, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FileExtractor } from '../../lambdas/adapters/extraction/extractor.js';
import { RecordingOcr } from './fake-ocr.js';
import { elf, encryptDocx, makeDocx, makePdf, mp4, renderTextPng, wav, windowsExe } from './fixtures.js';
import { expectReject } from './reject.js';

const extractor = new FileExtractor({ ocr: new RecordingOcr() });
const extract = (bytes: Uint8Array, declaredContentType = 'application/octet-stream', filename = 'file') =>
  extractor.extract({ bytes, declaredContentType, filename });

describe('bad files', () => {
  it.each([
    ['an ELF executable', elf()],
    ['a Windows executable', windowsExe()],
    ['a WAV recording', wav()],
    ['an MP4 video', mp4()],
    ['a zip that is not a DOCX', Buffer.from(zipSync({ 'notes.txt': Buffer.from('hello inside a zip') }))],
    ['a gzip archive', Buffer.from(gzipSync(Buffer.from('hello gzip')))],
  ])('refuses %s as unsupported_type', async (_name, bytes) => {
    await expectReject(extract(bytes, 'text/plain', 'file.txt'), 'unsupported_type');
  });

  it('refuses a legacy Office compound file that is not encrypted, and RTF, as unsupported_type', async () => {
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, 'WordDocument', Buffer.from('legacy word binary'));
    await expectReject(
      extract(Buffer.from(CFB.write(container, { type: 'buffer' })), 'application/msword', 'old.doc'),
      'unsupported_type',
    );
    await expectReject(extract(Buffer.from('{\\rtf1\\ansi Hello}'), 'application/rtf', 'a.rtf'), 'unsupported_type');
  });

  it('reads a PDF that has only an owner password (opens without one)', async () => {
    const pdf = await makePdf([{ text: 'open to read' }], {
      ownerPassword: 'owner',
      permissions: { printing: 'lowResolution' },
    });
    expect((await extract(pdf, 'application/pdf')).text).toBe('open to read');
  });

  it('refuses a password-protected DOCX as encrypted_document', async () => {
    await expectReject(extract(await encryptDocx(await makeDocx())), 'encrypted_document');
  });

  it('refuses a password-protected PDF as encrypted_document', async () => {
    const pdf = await makePdf([{ text: 'classified' }], { userPassword: 'secret', ownerPassword: 'owner' });
    await expectReject(extract(pdf, 'application/pdf'), 'encrypted_document');
  });

  it('refuses truncated PDF and DOCX files as extraction_failed', async () => {
    const pdf = await makePdf([{ text: 'page one' }, { text: 'page two' }]);
    await expectReject(extract(pdf.subarray(0, Math.floor(pdf.length * 0.6)), 'application/pdf'), 'extraction_failed');
    const docx = await makeDocx();
    await expectReject(extract(docx.subarray(0, Math.floor(docx.length * 0.7))), 'extraction_failed');
  });

  it('refuses a PDF with a broken body as extraction_failed', async () => {
    const junk = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41), Buffer.from('\n%%EOF\n')]);
    await expectReject(extract(junk, 'application/pdf'), 'extraction_failed');
  });

  it('refuses a DOCX whose zip would inflate past the limit, before inflating it', async () => {
    // 80 MiB of zeros deflates to about 80 KiB: a classic bomb inside a DOCX's shell.
    const docx = await makeDocx();
    const bomb = zipSync(
      {
        '[Content_Types].xml': unzipEntry(docx, '[Content_Types].xml'),
        'word/document.xml': new Uint8Array(80 * 1024 * 1024),
      },
      { level: 9 },
    );
    const started = Date.now();
    await expectReject(extract(bomb), 'too_large');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a zip with more entries than the limit', async () => {
    const small = new FileExtractor({ ocr: new RecordingOcr(), limits: { maxZipEntries: 50 } });
    const docx = await makeDocx();
    const entries: Record<string, Uint8Array> = { '[Content_Types].xml': unzipEntry(docx, '[Content_Types].xml') };
    for (let i = 0; i < 60; i += 1) entries[`word/media/part${i}.xml`] = Buffer.from('<x/>');
    entries['word/document.xml'] = unzipEntry(docx, 'word/document.xml');
    await expectReject(
      small.extract({ bytes: zipSync(entries), declaredContentType: 'application/octet-stream', filename: 'a.docx' }),
      'too_large',
    );
  });

  it('refuses a PDF over the page cap', async () => {
    const small = new FileExtractor({ ocr: new RecordingOcr(), limits: { maxPdfPages: 3 } });
    const pdf = await makePdf([1, 2, 3, 4].map((n) => ({ text: `page ${n}` })));
    await expectReject(
      small.extract({ bytes: pdf, declaredContentType: 'application/pdf', filename: 'a.pdf' }),
      'too_large',
    );
  });

  it('refuses a file that overruns the time budget', async () => {
    const slow = new FileExtractor({ ocr: new RecordingOcr('slow words', 1_000), limits: { timeBudgetMs: 200 } });
    const png = await renderTextPng(['slow']);
    await expectReject(slow.extract({ bytes: png, declaredContentType: 'image/png', filename: 'a.png' }), 'too_large');
  });
});

function unzipEntry(zip: Uint8Array, name: string): Uint8Array {
  return unzipSync(zip, { filter: (entry) => entry.name === name })[name]!;
}
