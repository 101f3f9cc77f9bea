import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedExtractor } from '../../lambdas/adapters/extraction/isolation/isolated-extractor.js';
import { CaptureRejected, type RejectCode } from '../../lambdas/core/errors.js';
import { RecordingOcr } from '../extraction/fake-ocr.js';
import { makeDocx, makePdf, renderTextPng } from '../extraction/fixtures.js';

/**
 * Property-based tests over every extractor (sniffing, text formats, HTML,
 * JSON, CSV, PDF, DOCX, images), through the reader threads both stacks
 * use: whatever the bytes, a read ends within its limits, with a text or a
 * reject carrying a contract code, and this thread keeps its timers.
 */
const LIMITS = { cpuBudgetMs: 3_000, timeBudgetMs: 6_000 };
const READ_CODES: ReadonlySet<RejectCode> = new Set([
  'too_large',
  'unsupported_type',
  'empty_content',
  'extraction_failed',
  'encrypted_document',
]);
const TYPES = [
  'text/plain',
  'text/html',
  'application/json',
  'text/csv',
  'text/markdown',
  'application/pdf',
  'image/png',
  'application/octet-stream',
];
const NAMES = ['note.txt', 'page.html', 'data.json', 'table.csv', 'notes.md', 'scan.pdf', 'photo.png', 'file'];

const extractor = new IsolatedExtractor({
  mode: 'full',
  ocr: new RecordingOcr('ocr words'),
  limits: LIMITS,
  threads: { request: 1, background: 1 },
});
afterAll(() => extractor.close());

/** Reads the bytes; fails the property unless the read ends in time with a text or a contract reject, without stalling this thread. */
async function readsWithinBounds(bytes: Uint8Array, declaredContentType: string, filename: string): Promise<void> {
  let gap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    const read = await extractor.extract({ bytes, declaredContentType, filename });
    expect(typeof read.text).toBe('string');
    expect(['file', 'image']).toContain(read.kind);
  } catch (error) {
    if (!(error instanceof CaptureRejected)) throw new Error(`not a contract reject: ${String(error)}`);
    expect(READ_CODES.has(error.rejectCode), `${error.rejectCode}: ${error.detail}`).toBe(true);
    expect(error.detail.length).toBeGreaterThan(5);
  } finally {
    clearInterval(ticker);
  }
  expect(performance.now() - started).toBeLessThan(LIMITS.timeBudgetMs + 6_000);
  expect(gap).toBeLessThan(300);
}

const declared = fc.tuple(fc.constantFrom(...TYPES), fc.constantFrom(...NAMES));

/** Markup made of the pieces parsers trip on: comments, declarations, deep and unclosed tags, entities, quotes. */
const markup = fc
  .array(
    fc.constantFrom(
      '<!--',
      '-->',
      '<!---->',
      '<?xml version="1.0"?>',
      '<!doctype html>',
      '<html>',
      '<body>',
      '<div>',
      '</div>',
      '<p>',
      '<table><tr><td>',
      '<script>',
      '</script>',
      '&amp;',
      '&#x1F600;',
      '&',
      '"',
      "'",
      '<',
      '>',
      ' ',
      '\n',
      '\r\n',
      'word',
      '\u0000',
      '\ud800',
      '{"a":[',
      ']}',
      ',',
      '""',
    ),
    { maxLength: 400 },
  )
  .map((pieces) => Buffer.from(pieces.join(''), 'utf8'));

let seeds: Array<{ bytes: Buffer; type: string; name: string }> = [];
beforeAll(async () => {
  seeds = [
    {
      bytes: await makePdf([{ text: 'a page of text' }, { text: 'another page' }]),
      type: 'application/pdf',
      name: 'a.pdf',
    },
    { bytes: await makeDocx(), type: 'application/octet-stream', name: 'a.docx' },
    { bytes: await renderTextPng(['scanned words'], { width: 300 }), type: 'image/png', name: 'a.png' },
    {
      bytes: Buffer.from(
        '<!doctype html><html><body><h1>T</h1><p>para</p><table><tr><td>1</td></tr></table></body></html>',
      ),
      type: 'text/html',
      name: 'a.html',
    },
    { bytes: Buffer.from(JSON.stringify({ a: [1, 2, { b: 'c' }], d: 'e' })), type: 'application/json', name: 'a.json' },
    {
      bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('utf-16 text\nline two', 'utf16le')]),
      type: 'text/plain',
      name: 'a.txt',
    },
  ];
}, 60_000);

/** A valid file, damaged: bytes overwritten, a run cut out or repeated, the end cut off. */
const damaged = () =>
  fc
    .record({
      seed: fc.nat(),
      edits: fc.array(
        fc.oneof(
          fc.record({
            kind: fc.constant('set' as const),
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            byte: fc.integer({ min: 0, max: 255 }),
          }),
          fc.record({
            kind: fc.constant('cut' as const),
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            length: fc.integer({ min: 1, max: 512 }),
          }),
          fc.record({
            kind: fc.constant('repeat' as const),
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            length: fc.integer({ min: 1, max: 64 }),
            times: fc.integer({ min: 2, max: 200 }),
          }),
          fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
        ),
        { minLength: 1, maxLength: 6 },
      ),
    })
    .map(({ seed, edits }) => {
      const base = seeds[seed % seeds.length]!;
      let bytes = Buffer.from(base.bytes);
      for (const edit of edits) {
        const at = Math.floor(edit.at * bytes.length);
        if (edit.kind === 'set') bytes[Math.min(at, bytes.length - 1)] = edit.byte;
        else if (edit.kind === 'cut') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + edit.length)]);
        else if (edit.kind === 'repeat')
          bytes = Buffer.concat([
            bytes.subarray(0, at),
            ...Array(edit.times).fill(bytes.subarray(at, at + edit.length)),
            bytes.subarray(at),
          ]);
        else bytes = bytes.subarray(0, Math.max(1, at));
      }
      return { bytes, type: base.type, name: base.name };
    });

describe('extractors under arbitrary input', () => {
  it('arbitrary bytes, declared as anything', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 8192 }), declared, (bytes, [type, name]) =>
        readsWithinBounds(bytes, type, name),
      ),
      { numRuns: 40 },
    );
  }, 300_000);

  it('arbitrary text, in any encoding the readers guess', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 2_000 }), declared, (text, [type, name]) =>
        readsWithinBounds(Buffer.from(text, 'utf8'), type, name),
      ),
      { numRuns: 40 },
    );
  }, 300_000);

  it('markup of comments, declarations, deep and unclosed tags', async () => {
    await fc.assert(
      fc.asyncProperty(markup, declared, (bytes, [type, name]) => readsWithinBounds(bytes, type, name)),
      { numRuns: 60 },
    );
  }, 300_000);

  it('valid PDF, DOCX, PNG, HTML, JSON and UTF-16 files, damaged', async () => {
    await fc.assert(
      fc.asyncProperty(damaged(), ({ bytes, type, name }) => readsWithinBounds(bytes, type, name)),
      { numRuns: 60 },
    );
  }, 300_000);
});
