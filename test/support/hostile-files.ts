import { crc32, createDeflate, deflateSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { makeDocx, makePdf } from '../extraction/fixtures.js';

/**
 * A corpus of hostile files, made by code so that each kind comes in
 * several shapes (other counts, other fillers, other positions), not only
 * the bytes an issue quoted. Each says what a careful reader must end with:
 * a text, or a reject code. Sizes stay within the contract's 4 MiB.
 */
export interface HostileFile {
  name: string;
  bytes: Buffer;
  contentType: string;
  filename: string;
  /** What reading it may end in: its text (`ok`), or one of these reject codes. */
  outcomes: ReadonlyArray<'ok' | 'too_large' | 'extraction_failed' | 'unsupported_type' | 'empty_content'>;
}

const MiB = 1024 * 1024;

/** A zlib stream of `size` repeated `byte`s, made in pieces (a bomb's payload without holding it in memory). */
async function deflatedRun(size: number, byte: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const piece = Buffer.alloc(8 * MiB, byte);
  for (let left = size; left > 0; left -= piece.length) {
    const part = left >= piece.length ? piece : piece.subarray(0, left);
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

/** A one-page PDF whose content stream is `stream` with `filter` (no xref: readers rebuild it, as they do for damaged files). */
function pdfWithContent(stream: Buffer, filter = '/FlateDecode'): Buffer {
  return Buffer.concat([
    Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n',
    ),
    Buffer.from('3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n'),
    Buffer.from(`4 0 obj << /Length ${stream.length} /Filter ${filter} >> stream\n`),
    stream,
    Buffer.from('\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

/** A DOCX carrying an extra part of `size` bytes whose declared sizes (local header and central directory) are rewritten to `declared`. */
async function docxWithPart(size: number, declared: number | null): Promise<Buffer> {
  const files = unzipSync(await makeDocx());
  files['word/media/filler.bin'] = new Uint8Array(size);
  const zipped = Buffer.from(zipSync(files, { level: 9 }));
  if (declared === null) return zipped;
  const real = Buffer.alloc(4);
  real.writeUInt32LE(size);
  for (let at = zipped.indexOf(real); at >= 0; at = zipped.indexOf(real, at + 4)) zipped.writeUInt32LE(declared, at);
  return zipped;
}

/** A PNG whose header announces `width` x `height` pixels, with a tiny (wrong) body: a pixel flood read from its header. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const text = (
  name: string,
  body: string,
  contentType: string,
  filename: string,
  outcomes: HostileFile['outcomes'],
): HostileFile => ({
  name,
  bytes: Buffer.from(body, 'utf8'),
  contentType,
  filename,
  outcomes,
});

/** Every hostile file, of every kind (a few seconds to make: the bombs are deflated for real). */
export async function hostileFiles(): Promise<HostileFile[]> {
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('ok \ud800 lone \udc00 surrogates '.repeat(2000), 'utf16le'),
    Buffer.from([0x41]),
  ]);
  return [
    // Runs of comments before a tag: the shape that backtracked exponentially.
    text('29 empty comments then a letter, as a .txt', `${'<!---->'.repeat(29)}x`, 'text/plain', 'note.txt', ['ok']),
    text('40 spaced comments then text, as HTML', `${'<!-- -->\n'.repeat(40)}plain words`, 'text/html', 'page.html', [
      'ok',
    ]),
    text('3000 unclosed-looking comments', `<!--${'--><!--'.repeat(3000)}`, 'text/plain', 'c.txt', [
      'ok',
      'empty_content',
    ]),
    text(
      'an XML declaration, 500 comments, then html',
      `<?xml version="1.0"?>${'<!--a-->'.repeat(500)}<html><body>deep end</body></html>`,
      'text/plain',
      'x.txt',
      ['ok'],
    ),
    // Deep structures.
    text('200,000 nested divs', `<html><body>${'<div>'.repeat(200_000)}bottom`, 'text/html', 'deep.html', [
      'ok',
      'too_large',
      'extraction_failed',
    ]),
    text('300,000 nested inline tags', `<!doctype html>${'<b><i>'.repeat(150_000)}x`, 'text/html', 'inline.html', [
      'ok',
      'too_large',
      'extraction_failed',
    ]),
    text(
      'JSON nested 1,000,000 arrays deep',
      `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`,
      'application/json',
      'deep.json',
      ['ok', 'too_large', 'extraction_failed'],
    ),
    text(
      'JSON nested 500,000 objects deep',
      `${'{"a":'.repeat(500_000)}1${'}'.repeat(500_000)}`,
      'application/json',
      'objects.json',
      ['ok', 'too_large', 'extraction_failed'],
    ),
    text(
      'JSON with 200,000 keys',
      JSON.stringify(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]))),
      'application/json',
      'keys.json',
      ['ok', 'too_large'],
    ),
    // Long lines and many lines.
    text('one line of 4 MiB', 'a'.repeat(4 * MiB - 64), 'text/plain', 'line.txt', ['ok', 'too_large']),
    text(
      '4 MiB of newlines around one word',
      `${'\n'.repeat(2 * MiB)}word${'\n'.repeat(2 * MiB - 64)}`,
      'text/plain',
      'lines.txt',
      ['ok', 'too_large'],
    ),
    text('a CSV field of 3 MiB in quotes', `a,b\n"${'x,'.repeat(1.5 * MiB)}",2\n`, 'text/csv', 'wide.csv', [
      'ok',
      'too_large',
    ]),
    text('HTML of 4 MiB of tags', `<html><body>${'<p>a</p>'.repeat(500_000)}`, 'text/html', 'tags.html', [
      'ok',
      'too_large',
    ]),
    // Malformed text encodings.
    {
      name: 'UTF-16 with lone surrogates and an odd byte',
      bytes: utf16,
      contentType: 'text/plain',
      filename: 'u16.txt',
      outcomes: ['ok'],
    },
    {
      name: 'UTF-8 cut in the middle of characters',
      bytes: Buffer.concat([Buffer.from('é'.repeat(10_000)).subarray(1), Buffer.from([0xe2, 0x82])]),
      contentType: 'text/plain',
      filename: 'cut.txt',
      outcomes: ['ok'],
    },
    // Zip bombs inside a DOCX's shell.
    {
      name: 'DOCX with a 300 MiB part declared as 100 bytes',
      bytes: await docxWithPart(300 * MiB, 100),
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      filename: 'lie.docx',
      outcomes: ['too_large', 'extraction_failed'],
    },
    {
      name: 'DOCX with a 200 MiB part declared honestly',
      bytes: await docxWithPart(200 * MiB, null),
      contentType: 'application/octet-stream',
      filename: 'big.docx',
      outcomes: ['too_large'],
    },
    // PDF stream bombs.
    {
      name: 'PDF whose content stream inflates to 768 MiB of spaces',
      bytes: pdfWithContent(await deflatedRun(768 * MiB, 0x20)),
      contentType: 'application/pdf',
      filename: 'bomb.pdf',
      outcomes: ['too_large', 'empty_content', 'extraction_failed'],
    },
    {
      name: 'PDF whose content stream inflates to 768 MiB of digits',
      bytes: pdfWithContent(await deflatedRun(768 * MiB, 0x30)),
      contentType: 'application/pdf',
      filename: 'zeros.pdf',
      outcomes: ['too_large', 'empty_content', 'extraction_failed'],
    },
    {
      name: 'PDF that is a broken stream',
      bytes: pdfWithContent(Buffer.alloc(50_000, 0x78)),
      contentType: 'application/pdf',
      filename: 'broken.pdf',
      outcomes: ['extraction_failed', 'empty_content'],
    },
    {
      name: 'PDF with 2,000 pages',
      bytes: await makePdf(Array.from({ length: 2_000 }, () => ({ blank: true as const }))),
      contentType: 'application/pdf',
      filename: 'pages.pdf',
      outcomes: ['too_large'],
    },
    // Images larger than any page.
    {
      name: 'PNG announcing 60,000 x 60,000 pixels',
      bytes: pngClaiming(60_000, 60_000),
      contentType: 'image/png',
      filename: 'flood.png',
      outcomes: ['too_large', 'extraction_failed'],
    },
    {
      name: 'PNG announcing 1 x 200,000,000 pixels',
      bytes: pngClaiming(1, 200_000_000),
      contentType: 'image/png',
      filename: 'tall.png',
      outcomes: ['too_large', 'extraction_failed'],
    },
  ];
}
