import { describe, expect, it } from 'vitest';
import { BodyRefused, decodeUtf8, parseJsonObject } from '../../lambdas/http/json-body.js';
import { CaptureItem, CONTENT_TYPE_MAX_CHARS, MEDIA_TYPE } from '../../lambdas/http/schemas.js';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BodyRefused);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('JSON bodies: UTF-8', () => {
  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a truncated sequence', [0x7b, 0x22, 0xc3, 0x22, 0x7d]],
    ['an overlong encoding', [0x7b, 0xc0, 0xaf, 0x7d]],
    ['an encoded surrogate', [0x7b, 0xed, 0xa0, 0x80, 0x7d]],
    ['a byte never in UTF-8', [0x7b, 0xff, 0x7d]],
  ])('refuses %s, naming the byte', (_label, bytes) => {
    expect(refusal(() => decodeUtf8(Uint8Array.from(bytes)))).toMatch(/^body: not valid UTF-8 \(at byte \d+\)$/);
  });

  it('decodes UTF-8 of every length and keeps a byte order mark (which then is not JSON)', () => {
    expect(decodeUtf8(Buffer.from('{"t":"é€😀"}'))).toBe('{"t":"é€😀"}');
    const withBom = decodeUtf8(Buffer.from('\ufeff{}'));
    expect(withBom.charCodeAt(0)).toBe(0xfeff);
    expect(refusal(() => parseJsonObject(withBom))).toBe('body is not valid JSON');
  });
});

describe('JSON bodies: duplicate keys and lone surrogates', () => {
  it.each([
    ['{"text":"a","text":"b"}', 'text: duplicate key'],
    ['{"text":"a","\\u0074ext":"b"}', 'text: duplicate key'],
    ['{"items":[{"text":"a"},{"text":"b","text":"c"}]}', 'items.1.text: duplicate key'],
    ['{"a":{"b":[1,[2,{"c":1,"c":2}]]}}', 'a.b.1.1.c: duplicate key'],
    ['{"items":[],"items":[]}', 'items: duplicate key'],
  ])('refuses %s naming the key', (json, message) => {
    expect(refusal(() => parseJsonObject(json))).toMatch(new RegExp(`^${message.replace(/[.[\]]/g, '\\$&')} \\(`));
  });

  it('accepts the same key in different objects, and key-like text inside strings', () => {
    expect(parseJsonObject('{"items":[{"text":"a"},{"text":"b"}],"text":"c"}')).toBeTruthy();
    expect(parseJsonObject('{"a":"{\\"a\\":1,\\"a\\":2}","b":"\\\\","c":"\\\\\\"","d":"x"}')).toEqual({
      a: '{"a":1,"a":2}',
      b: '\\',
      c: '\\"',
      d: 'x',
    });
  });

  it('refuses a lone surrogate escape in a value or a key, accepts a pair', () => {
    expect(refusal(() => parseJsonObject('{"text":"abc\\ud800"}'))).toMatch(
      /^text: holds a \\u escape of a lone surrogate/,
    );
    expect(refusal(() => parseJsonObject('{"items":[{"text":"\\uDC00x"}]}'))).toMatch(/^items\.0\.text: holds/);
    expect(refusal(() => parseJsonObject('{"\\ud800":1}'))).toMatch(/^body: a key holds/);
    expect(parseJsonObject('{"text":"\\ud83d\\ude00"}')).toEqual({ text: '😀' });
  });

  it('refuses what is not JSON or not an object as before', () => {
    expect(refusal(() => parseJsonObject('{"a":'))).toBe('body is not valid JSON');
    expect(refusal(() => parseJsonObject('[1]'))).toBe('body must be a JSON object');
  });

  it('checks a 6 MB body in linear time', () => {
    const body = JSON.stringify({
      content_base64: 'QUJD'.repeat(1_500_000),
      filename: 'a',
      content_type: 'text/plain',
      title: '\\"'.repeat(1000),
    });
    const started = performance.now();
    parseJsonObject(body);
    expect(performance.now() - started).toBeLessThan(500);
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)},"a":1}`;
    expect(refusal(() => parseJsonObject(deep))).toMatch(/^a: duplicate key/);
  });
});

describe('content_type: a media type (RFC 9110), at most 255 characters', () => {
  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'text/plain;charset="utf-8"',
    'TEXT/Plain ; a=b ;c=d',
    'text/plain; a="quoted \\" and ; semicolon"',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain;',
  ])('accepts %s', (value) => {
    expect(MEDIA_TYPE.test(value)).toBe(true);
    expect(CaptureItem.safeParse({ content_type: value }).success).toBe(true);
  });

  it.each([
    ['a parameter without a value', 'text/plain; charset'],
    ['a parameter with an empty value', 'text/plain; charset='],
    ['no subtype', 'text'],
    ['an empty subtype', 'text/'],
    ['a space in the type', 'te xt/plain'],
    ['a space in a value', 'text/plain; a=b c'],
    ['an unterminated quoted string', 'text/plain; a="x'],
    ['a non-ASCII value', 'text/plain; a=é'],
    ['a line break', 'text/plain\n'],
    ['leading white space', ' text/plain'],
    ['two media types', 'text/plain, text/html'],
  ])('refuses %s', (_label, value) => {
    expect(MEDIA_TYPE.test(value)).toBe(false);
    const parsed = CaptureItem.safeParse({ content_type: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['content_type']);
  });

  it('caps the length, and checks the length before the pattern', () => {
    const at = `text/plain; x=${'a'.repeat(CONTENT_TYPE_MAX_CHARS - 'text/plain; x='.length)}`;
    expect(at).toHaveLength(CONTENT_TYPE_MAX_CHARS);
    expect(CaptureItem.safeParse({ content_type: at }).success).toBe(true);
    const over = CaptureItem.safeParse({ content_type: `${at}a` });
    expect(over.error!.issues.map((i) => i.code)).toEqual(['too_big']);
    const started = performance.now();
    CaptureItem.safeParse({ content_type: `a/b${';  '.repeat(1_000_000)}x` });
    MEDIA_TYPE.test(`a/b${'; '.repeat(100_000)}; a="${'\\\\'.repeat(100_000)}`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
