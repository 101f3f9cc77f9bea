import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertImage, elf, encryptDocx, makeDocx, makePdf, mp4, renderTextPng, wav } from '../extraction/fixtures.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Every format through HTTP: captured with content_base64, then found by
 * search and by grep at the right line; every bad file rejected with its
 * code and nothing left behind. Real extraction and real OCR (tesseract.js).
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('extraction-tenant');
});
afterAll(() => server.close());

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const capture = (bytes: Uint8Array | string, filename: string, contentType: string, k = key) =>
  server.api('/v1/capture', { key: k, body: { content_base64: b64(bytes), filename, content_type: contentType } });
const grep = (pattern: string, fileId: string) =>
  server.api(`/v1/grep?pattern=${encodeURIComponent(pattern)}&file_id=${fileId}`, { key });
const search = (q: string) => server.api(`/v1/search?q=${encodeURIComponent(q)}&limit=20`, { key });

interface Case {
  name: string;
  bytes: () => Promise<Uint8Array | string>;
  filename: string;
  contentType: string;
  /** A word only this document holds, and the line it is on. */
  word: string;
  line: number;
  kind: 'file_excerpt' | 'image';
  realType: string;
}

const cases: Case[] = [
  {
    name: 'plain text in UTF-16 with BOM',
    filename: 'notes.txt',
    contentType: 'text/plain',
    word: 'Wombatique',
    line: 2,
    kind: 'file_excerpt',
    realType: 'text/plain',
    bytes: async () =>
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first line\nthe Wombatique ledger\n', 'utf16le')]),
  },
  {
    name: 'Latin-1 text',
    filename: 'café.txt',
    contentType: 'text/plain',
    word: 'Crèmeboulanger',
    line: 3,
    kind: 'file_excerpt',
    realType: 'text/plain',
    bytes: async () => Buffer.from('un\ndeux\nle Crèmeboulanger du coin\n', 'latin1'),
  },
  {
    name: 'Markdown',
    filename: 'readme.md',
    contentType: 'text/markdown',
    word: 'Quokkaflux',
    line: 3,
    kind: 'file_excerpt',
    realType: 'text/markdown',
    bytes: async () => '# Project\n\nThe Quokkaflux module syncs files.\n',
  },
  {
    name: 'CSV',
    filename: 'stock.csv',
    contentType: 'text/csv',
    word: 'Marmalite',
    line: 3,
    kind: 'file_excerpt',
    realType: 'text/csv',
    bytes: async () => 'item,qty\napple,3\nMarmalite,9\n',
  },
  {
    name: 'JSON',
    filename: 'person.json',
    contentType: 'application/json',
    word: 'Zephyrine',
    line: 3,
    kind: 'file_excerpt',
    realType: 'application/json',
    bytes: async () => '{\n  "role": "engineer",\n  "name": "Zephyrine"\n}\n',
  },
  {
    name: 'HTML',
    filename: 'page.html',
    contentType: 'text/html',
    word: 'Falconridge',
    line: 3,
    kind: 'file_excerpt',
    realType: 'text/html',
    bytes: async () =>
      '<!doctype html><html><head><script>var hidden = "Scriptonite";</script></head><body><h1>Release</h1><p>The Falconridge build ships.</p></body></html>',
  },
  {
    name: 'DOCX',
    filename: 'report.docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    word: 'Northwind',
    line: 8,
    kind: 'file_excerpt',
    realType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: makeDocx,
  },
  {
    // Declared wrongly: the bytes decide.
    name: 'PDF with a text layer',
    filename: 'paper.pdf',
    contentType: 'application/octet-stream',
    word: 'Xylocarpa',
    line: 4,
    kind: 'file_excerpt',
    realType: 'application/pdf',
    bytes: () => makePdf([{ text: 'Page one intro' }, { text: 'Second page\nmentions Xylocarpa trees' }]),
  },
  {
    name: 'PDF with a scanned page',
    filename: 'scan.pdf',
    contentType: 'application/pdf',
    word: 'Blueberry',
    line: 3,
    kind: 'file_excerpt',
    realType: 'application/pdf',
    bytes: async () =>
      makePdf([
        { text: 'Typed cover page' },
        { image: await renderTextPng(['Blueberry harvest report'], { fontPx: 40, width: 1000 }) },
      ]),
  },
  {
    name: 'PNG photo of text',
    filename: 'whiteboard.png',
    contentType: 'image/png',
    word: 'Kangaroo',
    line: 1,
    kind: 'image',
    realType: 'image/png',
    bytes: () => renderTextPng(['Kangaroo meeting at noon'], { fontPx: 40, width: 1000 }),
  },
  ...(['jpeg', 'tiff', 'webp', 'gif'] as const).map((format, i): Case => {
    const word = ['Pelican', 'Tortoise', 'Flamingo', 'Hedgehog'][i]!;
    return {
      name: `${format.toUpperCase()} photo of text`,
      filename: `photo.${format}`,
      contentType: `image/${format}`,
      word,
      line: 1,
      kind: 'image',
      realType: `image/${format}`,
      bytes: async () =>
        convertImage(await renderTextPng([`${word} seen at dawn`], { fontPx: 40, width: 1000 }), format),
    };
  }),
];

describe('capture of every format, then search and grep', () => {
  const ids = new Map<string, string>();

  it.each(cases)('$name is created with its real type', async (c) => {
    const res = await capture(await c.bytes(), c.filename, c.contentType);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.set(c.name, res.body.id);
    const doc = await server.api(`/v1/documents/${res.body.id}`, { key });
    expect(doc.body).toMatchObject({
      content_type: c.realType,
      kind: c.kind === 'image' ? 'image' : 'file',
      status: 'ready',
    });
  });

  it.each(cases)('$name is found by grep at its line', async (c) => {
    const id = ids.get(c.name)!;
    const res = await grep(c.word, id);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      expect.objectContaining({ file_id: id, line: c.line, snippet: expect.stringContaining(`${c.line}: `) }),
    ]);
    expect(res.body.results[0].snippet.toLowerCase()).toContain(c.word.toLowerCase());
  });

  it.each(cases)('$name is found by search with its kind', async (c) => {
    const res = await search(c.word);
    const hit = res.body.results.find((r: { id: string }) => r.id === ids.get(c.name));
    expect(hit, JSON.stringify(res.body.results)).toMatchObject({ kind: c.kind });
    expect(hit.snippet.toLowerCase()).toContain(c.word.toLowerCase());
  });

  it('keeps script text out of an HTML document', async () => {
    expect((await grep('Scriptonite', ids.get('HTML')!)).body.count).toBe(0);
  });

  it('records page counts and bills OCR pages', async () => {
    const scan = await server.api(`/v1/documents/${ids.get('PDF with a scanned page')!}`, { key });
    expect(scan.body).toMatchObject({ line_count: 3, page_count: 2 });
    const text = await server.api(`/v1/documents/${ids.get('PDF with a text layer')!}`, { key });
    expect(text.body).toMatchObject({ page_count: 2 });
    // One scanned PDF page and five photos were OCRed.
    const usage = await server.api('/v1/usage', { key });
    expect(usage.body.ocr_pages).toBe(6);
  });
});

describe('bad files over HTTP', () => {
  let badKey: string;
  beforeAll(async () => {
    badKey = await server.newKey('bad-files-tenant');
  });

  const bad: Array<[string, () => Promise<Uint8Array | string>, string, string]> = [
    [
      'a truncated PDF',
      async () => {
        const pdf = await makePdf([{ text: 'one' }, { text: 'two' }]);
        return pdf.subarray(0, Math.floor(pdf.length * 0.6));
      },
      'application/pdf',
      'extraction_failed',
    ],
    [
      'a truncated DOCX',
      async () => {
        const d = await makeDocx();
        return d.subarray(0, Math.floor(d.length * 0.7));
      },
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'extraction_failed',
    ],
    [
      'a password-protected PDF',
      () => makePdf([{ text: 'secret' }], { userPassword: 'pw', ownerPassword: 'owner' }),
      'application/pdf',
      'encrypted_document',
    ],
    [
      'a password-protected DOCX',
      async () => encryptDocx(await makeDocx()),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'encrypted_document',
    ],
    ['a PDF of blank pages', () => makePdf([{ blank: true }]), 'application/pdf', 'empty_content'],
    ['a blank image', async () => renderTextPng([''], { width: 400 }), 'image/png', 'empty_content'],
    ['an executable', async () => elf(), 'application/octet-stream', 'unsupported_type'],
    [
      'a zip archive',
      async () => zipSync({ 'a.txt': Buffer.from('zipped words') }),
      'application/zip',
      'unsupported_type',
    ],
    ['audio', async () => wav(), 'audio/wav', 'unsupported_type'],
    ['video', async () => mp4(), 'video/mp4', 'unsupported_type'],
    ['a file over 4 MiB', async () => Buffer.alloc(4 * 1024 * 1024 + 1, 0x61), 'text/plain', 'too_large'],
  ];

  it.each(bad)('%s is rejected and leaves nothing behind', async (_name, bytes, contentType, code) => {
    const res = await capture(await bytes(), 'bad-file', contentType, badKey);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, status: 'rejected', reject_code: code, retryable: false, id: null });
    const docs = await server.api('/v1/documents', { key: badKey });
    expect(docs.body.count).toBe(0);
  });

  it('still serves after every bad file', async () => {
    const res = await capture('still alive', 'alive.txt', 'text/plain', badKey);
    expect(res.status).toBe(201);
  });
});
