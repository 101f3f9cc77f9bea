import { describe, expect, it } from 'vitest';
import { chunkText, excerptAround, splitLines } from '../../lambdas/core/chunking.js';

describe('chunkText', () => {
  it('covers every non-blank line exactly once, with correct 1-based line ranges', () => {
    const lines = Array.from({ length: 60 }, (_, i) =>
      i % 7 === 6 ? '' : `Line ${i + 1} says something moderately long about topic ${i}.`,
    );
    const text = lines.join('\n');
    const passages = chunkText(text);
    expect(passages.length).toBeGreaterThan(3);
    for (const p of passages) {
      const covered = splitLines(text)
        .slice(p.lineStart - 1, p.lineEnd)
        .join('\n')
        .trim();
      expect(covered).toBe(p.text);
      expect(p.text.length).toBeLessThanOrEqual(500);
    }
    const seen = passages.flatMap((p) => p.text.split('\n'));
    expect(seen).toEqual(lines.filter((l) => l.trim()));
    expect(passages.map((p) => p.ordinal)).toEqual(passages.map((_, i) => i));
  });

  it('splits a very long line at sentence or word boundaries, all pieces on that line', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const text = `title\n${sentence.repeat(60)}\nend`;
    const passages = chunkText(text);
    const onLineTwo = passages.filter((p) => p.lineStart <= 2 && p.lineEnd >= 2);
    expect(onLineTwo.length).toBeGreaterThan(4);
    for (const p of passages) expect(p.text.length).toBeLessThanOrEqual(500);
    const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(normalize(passages.map((p) => p.text).join(' '))).toBe(normalize(text));
    // Pieces of one line are never split by a newline that was not in the text.
    expect(onLineTwo.filter((p) => p.lineEnd === 2).every((p) => !p.text.includes('\n'))).toBe(true);
  });

  it('handles CRLF and returns nothing for blank text', () => {
    expect(chunkText('a\r\nb\r\nc')[0]).toMatchObject({ lineStart: 1, lineEnd: 3, text: 'a\nb\nc' });
    expect(chunkText(' \n\n ')).toEqual([]);
  });
});

describe('excerptAround', () => {
  it('never cuts a character in half: no lone surrogate at either end, whatever the offset', () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = `${'x'.repeat(pad)}${'😀'.repeat(400)}NEEDLE${'😀'.repeat(400)}`;
      const at = text.indexOf('NEEDLE');
      for (const max of [499, 500, 501]) {
        const excerpt = excerptAround(text, at, 6, max);
        expect(excerpt.length).toBeLessThanOrEqual(max);
        expect(excerpt).toContain('NEEDLE');
        expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }
    }
  });

  it('keeps short text whole and cuts long text around the match within the limit', () => {
    expect(excerptAround('short', 0, 5, 500)).toBe('short');
    const long = `${'x'.repeat(1000)}NEEDLE${'y'.repeat(1000)}`;
    const cut = excerptAround(long, 1000, 6, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toContain('NEEDLE');
    expect(cut.startsWith('…') && cut.endsWith('…')).toBe(true);
  });
});
