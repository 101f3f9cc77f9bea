import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { isSlowWork } from '../../lambdas/adapters/extraction/slow-work.js';
import { sniff } from '../../lambdas/adapters/extraction/sniff.js';
import { bigTiff, bmp, convertImage, elf, heic, makeDocx, makePdf, renderTextPng, tiffBigEndian } from './fixtures.js';

/**
 * The extractor decides which captures are slow work (queued) from what
 * sniff() reads: a file sniffed as a PDF, a DOCX or an image is slow work;
 * text, and what sniff refuses, stays inline (refused there at once); any
 * file over the inline size is queued.
 */
const INLINE_MAX = 1024 * 1024;

async function headers(): Promise<Array<[string, Uint8Array]>> {
  const png = await renderTextPng(['slow work'], { width: 300 });
  return [
    ['PDF', await makePdf([{ text: 'a page' }])],
    ['DOCX (zip)', await makeDocx()],
    ['PNG', png],
    ['JPEG', await convertImage(png, 'jpeg')],
    ['GIF', await convertImage(png, 'gif')],
    ['WebP', await convertImage(png, 'webp')],
    ['TIFF II*', await convertImage(png, 'tiff')],
    ['TIFF MM*', tiffBigEndian()],
    ['BigTIFF little-endian (II 2B 00)', bigTiff('le')],
    ['BigTIFF big-endian (MM 00 2B)', bigTiff('be')],
    ['BMP', bmp()],
    ['HEIC', heic()],
    ['a zip that is not a DOCX', zipSync({ 'notes.txt': Buffer.from('hello inside a zip') })],
    ['an ELF executable', elf()],
    ['plain text', Buffer.from('plain text that claims nothing\nsecond line\n')],
    ['HTML', Buffer.from('<!doctype html><html><head><title>t</title></head><body><p>Hello</p></body></html>')],
  ];
}

/** sniff's family, or 'refused' when sniff rejects the bytes. */
async function family(bytes: Uint8Array): Promise<string> {
  try {
    return (await sniff(bytes)).family;
  } catch {
    return 'refused';
  }
}

describe('isSlowWork agrees with sniff', () => {
  it('queues any file over the inline size, text too', async () => {
    expect(await isSlowWork(Buffer.alloc(INLINE_MAX + 1, 0x61), INLINE_MAX)).toBe(true);
    expect(await isSlowWork(Buffer.alloc(INLINE_MAX, 0x61), INLINE_MAX)).toBe(false);
  });

  it('is slow work exactly when sniff reads a PDF, a DOCX or an image', async () => {
    const rows = await Promise.all(
      (await headers()).map(async ([name, bytes]) => ({
        name,
        family: await family(bytes),
        slow: await isSlowWork(bytes, INLINE_MAX),
      })),
    );
    for (const row of rows) {
      expect({ name: row.name, slow: row.slow }).toEqual({
        name: row.name,
        slow: row.family !== 'text' && row.family !== 'refused',
      });
    }
    // The fixtures cover every family, so the agreement above is not vacuous.
    const byName = Object.fromEntries(rows.map((row) => [row.name, row.family]));
    expect(byName).toMatchObject({
      PDF: 'pdf',
      'DOCX (zip)': 'docx',
      PNG: 'image',
      JPEG: 'image',
      GIF: 'image',
      WebP: 'image',
      'TIFF II*': 'image',
      'TIFF MM*': 'image',
      'BigTIFF little-endian (II 2B 00)': 'image',
      'BigTIFF big-endian (MM 00 2B)': 'image',
      BMP: 'refused',
      HEIC: 'refused',
      'a zip that is not a DOCX': 'refused',
      'an ELF executable': 'refused',
      'plain text': 'text',
      HTML: 'text',
    });
  });
});
