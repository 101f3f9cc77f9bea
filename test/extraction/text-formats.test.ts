import { describe, expect, it } from 'vitest';
import { FileExtractor } from '../../lambdas/adapters/extraction/extractor.js';
import { RecordingOcr } from './fake-ocr.js';
import { expectReject } from './reject.js';

const extractor = new FileExtractor({ ocr: new RecordingOcr() });
const extract = (bytes: Uint8Array | string, declaredContentType = 'text/plain', filename = 'file') =>
  extractor.extract({ bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes, declaredContentType, filename });

describe('text formats', () => {
  it('keeps a UTF-8 text file line for line', async () => {
    const out = await extract('first line\nsecond ünïcode line\n\nfourth\n');
    expect(out).toMatchObject({
      text: 'first line\nsecond ünïcode line\n\nfourth\n',
      contentType: 'text/plain',
      kind: 'file',
      ocrPages: 0,
    });
  });

  it('decodes UTF-16 LE and BE with a byte order mark', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo wörld\nline two', 'utf16le')]);
    expect((await extract(le)).text).toBe('héllo wörld\nline two');
    const be = Buffer.from(Buffer.from('naïve text', 'utf16le')).swap16();
    expect((await extract(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).text).toBe('naïve text');
  });

  it('reads bytes that are not UTF-8 as Latin-1', async () => {
    const latin1 = Buffer.from('café crème à la carte', 'latin1');
    expect((await extract(latin1)).text).toBe('café crème à la carte');
  });

  it('drops a UTF-8 byte order mark', async () => {
    expect((await extract(Buffer.from('\ufeffbom text'))).text).toBe('bom text');
  });

  it('reads HTML as visible text, block elements as lines, scripts and styles dropped', async () => {
    const html = `<!DOCTYPE html><html><head><title>Ignored title</title><style>.a{color:red}</style><script>var secretToken = 1;</script></head>
      <body><h1>Release notes</h1><p>The <b>Falcon</b> build ships today.</p><ul><li>faster sync</li><li>smaller bundle</li></ul>
      <table><tr><td>Owner</td><td>Mira</td></tr></table><noscript>enable js</noscript></body></html>`;
    const out = await extract(html, 'text/html', 'notes.html');
    expect(out.contentType).toBe('text/html');
    const lines = out.text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines).toEqual([
      'Release notes',
      'The Falcon build ships today.',
      '* faster sync',
      '* smaller bundle',
      'Owner   Mira',
    ]);
    expect(out.text).not.toMatch(/secretToken|color:red|Ignored title|enable js/);
  });

  it('recognizes HTML by its content even when declared as plain text', async () => {
    const out = await extract('<html><body><p>one</p><p>two</p></body></html>', 'text/plain', 'page.txt');
    expect(out.contentType).toBe('text/html');
    expect(out.text).toBe('one\n\ntwo');
  });

  it('keeps Markdown and CSV as written, typed by declared type or extension', async () => {
    const md = await extract('# Title\n\n- item *one*\n', 'application/octet-stream', 'readme.md');
    expect(md).toMatchObject({ text: '# Title\n\n- item *one*\n', contentType: 'text/markdown' });
    const csv = await extract('name,qty\napple,3\n', 'text/csv', 'stock.csv');
    expect(csv).toMatchObject({ text: 'name,qty\napple,3\n', contentType: 'text/csv' });
  });

  it('checks JSON and keeps it as written', async () => {
    const out = await extract('{\n  "name": "Ada",\n  "role": "engineer"\n}', 'application/json', 'a.json');
    expect(out).toMatchObject({
      contentType: 'application/json',
      text: '{\n  "name": "Ada",\n  "role": "engineer"\n}',
    });
    await expectReject(extract('{"name": "Ada",', 'application/json', 'a.json'), 'extraction_failed');
  });

  it('lets the bytes win over a declared binary type', async () => {
    const out = await extract('plain words in a file', 'image/png', 'photo.png');
    expect(out).toMatchObject({ contentType: 'text/plain', kind: 'file' });
  });

  it('refuses binary data of an unknown type', async () => {
    const bytes = Buffer.alloc(512);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 37) % 256;
    await expectReject(extract(bytes, 'text/plain'), 'unsupported_type');
  });
});
