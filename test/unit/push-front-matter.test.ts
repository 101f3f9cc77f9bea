import { describe, expect, it } from 'vitest';
import {
  findFrontMatter,
  frontMatterMetadata,
  metadataPatch,
  metadataValue,
  parseMetadataPair,
  parseMetadataValue,
  sameMetadata,
  splitFile,
} from '../../bin/front-matter.js';

/** `library push`'s metadata: --metadata pairs, Markdown front matter, and the patch from one metadata to another. */
describe('push metadata', () => {
  it('reads a --metadata value as a number only when it is written as one, true/false as booleans, else as a string', () => {
    expect(['42', '-1.5', '2e3', '0', '1E-2'].map(parseMetadataValue)).toEqual([42, -1.5, 2000, 0, 0.01]);
    expect(
      ['007', '+1', '0x10', '1.', '.5', 'Infinity', 'NaN', '', ' 1', '1e999', 'TRUE'].map(parseMetadataValue),
    ).toEqual(['007', '+1', '0x10', '1.', '.5', 'Infinity', 'NaN', '', ' 1', '1e999', 'TRUE']);
    expect([parseMetadataValue('true'), parseMetadataValue('false')]).toEqual([true, false]);
    expect(parseMetadataPair('url=https://x.test/?a=b')).toEqual(['url', 'https://x.test/?a=b']);
    expect(parseMetadataPair('empty=')).toEqual(['empty', '']);
    expect(() => parseMetadataPair('no-equals')).toThrow(/expected key=value/);
    expect(() => parseMetadataPair('1abc=x')).toThrow(/a key starts with a letter/);
    expect(() => parseMetadataPair(`long=${'x'.repeat(1025)}`)).toThrow(/at most 1024/);
  });

  it('finds front matter: a first line ---, then YAML, then a line --- (CRLF, trailing blanks, a byte order mark, the end of the file)', () => {
    const text = (s: string) => Buffer.from(s, 'utf8');
    expect(findFrontMatter(text('---\na: 1\n---\nbody\n'))).toEqual({ yaml: 'a: 1\n', bodyStart: 13 });
    expect(findFrontMatter(text('---\r\na: 1\r\n--- \r\nbody'))).toMatchObject({ yaml: 'a: 1\r\n' });
    expect(findFrontMatter(text('\uFEFF---\na: 1\n---\nbody'))).toMatchObject({ yaml: 'a: 1\n' });
    expect(findFrontMatter(text('---\na: 1\n---'))).toEqual({ yaml: 'a: 1\n', bodyStart: 12 });
    expect(findFrontMatter(text('---\n---\nbody'))).toEqual({ yaml: '', bodyStart: 8 });
    for (const none of [
      'a: 1\n---\n',
      '---\na: 1\n',
      ' ---\na: 1\n---\n',
      '----\na: 1\n----\n',
      '---\na: 1\n----\n',
      '---',
    ]) {
      expect(findFrontMatter(text(none))).toBeNull();
    }
  });

  it('keeps the values the metadata rules allow and says why it leaves the others out', () => {
    const read = frontMatterMetadata(
      [
        'title: Notes',
        'year: 2024',
        'ratio: 0.5',
        'draft: no',
        'done: true',
        'day: 2026-01-15',
        'tags: [a, 2024, true]',
        'nested: {a: 1}',
        'deep: [[1]]',
        'empty:',
        'inf: .inf',
        '"bad key": 1',
        '__proto__: [x]',
        `long: ${'x'.repeat(1025)}`,
      ].join('\n'),
    );
    if ('error' in read) throw new Error(read.error);
    expect(read.metadata).toEqual(
      Object.fromEntries([
        ['title', 'Notes'],
        ['year', 2024],
        ['ratio', 0.5],
        ['draft', 'no'],
        ['done', true],
        ['day', '2026-01-15'],
        ['tags', ['a', '2024', 'true']],
        ['__proto__', ['x']],
      ]),
    );
    expect(Object.getPrototypeOf(read.metadata)).toBe(Object.prototype);
    expect(read.warnings).toEqual([
      'front matter key nested left out: a nested mapping',
      'front matter key deep left out: a list holding something other than strings, numbers, booleans or dates',
      'front matter key empty left out: no value',
      'front matter key inf left out: not a finite number',
      expect.stringMatching(/^front matter key "bad key" left out: a key starts/),
      'front matter key long left out: a string over 1024 characters',
    ]);
    expect(metadataValue(new Date('2026-01-15T10:00:00Z'))).toEqual({ value: '2026-01-15T10:00:00.000Z' });
    expect(frontMatterMetadata('a: [unclosed')).toMatchObject({
      error: expect.stringMatching(/^its front matter is not valid YAML/),
    });
    expect(frontMatterMetadata('- a\n- b')).toEqual({ error: 'its front matter is not a mapping of keys to values' });
    expect(frontMatterMetadata('a: 1\na: 2')).toMatchObject({ error: expect.stringMatching(/not valid YAML/) });
    expect(frontMatterMetadata('# only a comment')).toEqual({ metadata: {}, warnings: [] });
  });

  it('cuts the front matter off a Markdown file only: the body byte for byte; a blank body keeps the file whole', () => {
    const body = Buffer.from('# Title\r\n\u00e9t\u00e9\n');
    const file = Buffer.concat([Buffer.from('---\nk: v\n---\n'), body]);
    expect(splitFile('notes/a.md', file)).toEqual({
      bytes: body,
      metadata: { k: 'v' },
      frontMatter: true,
      warnings: [],
    });
    expect(splitFile('notes/a.MARKDOWN', file)).toMatchObject({ bytes: body, frontMatter: true });
    expect(splitFile('notes/a.txt', file)).toEqual({ bytes: file, metadata: {}, frontMatter: false, warnings: [] });
    const blank = Buffer.from('---\nk: v\n---\n\n  \n');
    expect(splitFile('a.md', blank)).toEqual({ bytes: blank, metadata: { k: 'v' }, frontMatter: false, warnings: [] });
    const invalid = Buffer.from('---\nk: [x\n---\nbody\n');
    expect(splitFile('a.md', invalid)).toMatchObject({
      bytes: invalid,
      metadata: {},
      frontMatter: false,
      warnings: [expect.stringMatching(/not valid YAML.*captured whole/)],
    });
  });

  it('compares metadata key order aside, and patches only what differs (null for a key gone)', () => {
    expect(sameMetadata({ a: 1, b: ['x', 'y'] }, { b: ['x', 'y'], a: 1 })).toBe(true);
    expect(sameMetadata({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameMetadata({ b: ['x', 'y'] }, { b: ['y', 'x'] })).toBe(false);
    expect(sameMetadata({}, { a: 1 })).toBe(false);
    expect(
      metadataPatch({ a: 1, b: 'same', c: ['x'], gone: true }, { a: 2, b: 'same', c: ['x', 'y'], added: 'n' }),
    ).toEqual({ a: 2, c: ['x', 'y'], added: 'n', gone: null });
  });
});
