import type { Passage } from './model.js';

/**
 * Splits text into passages that remember their 1-based line range. Passages
 * are built from whole lines, and a line longer than the target is split at
 * sentence or word boundaries, so every passage stays within `maxChars`
 * (search snippets are passages, and a snippet is at most 500 characters).
 */
export interface ChunkingOptions {
  /** Aim for passages of about this many characters. */
  targetChars: number;
  /** Never exceed this many characters. */
  maxChars: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { targetChars: 400, maxChars: 500 };

/** A text's lines (\n, \r\n or \r ends one). A text with no \r is split on its own: several times faster on a million short lines. */
export function splitLines(text: string): string[] {
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}

/** The first line that holds more than spaces, trimmed ('' when none), read without splitting the whole text. */
export function firstNonBlankLine(text: string): string {
  const end = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = end.exec(text); ; match = end.exec(text)) {
    const line = text.slice(start, match ? match.index : text.length).trim();
    if (line || !match) return line;
    start = match.index + match[0].length;
  }
}

/** Lines of a text as editors count them: a final newline ends the last line rather than starting one. Counted, not split. */
export function countLines(text: string): number {
  if (text.includes('\r')) {
    const lines = splitLines(text);
    return lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  }
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines > 1 && text.endsWith('\n') ? lines - 1 : lines;
}

export function chunkText(text: string, options: ChunkingOptions = DEFAULT_CHUNKING): Passage[] {
  const lines = splitLines(text);
  const passages: Passage[] = [];
  // Pieces of one long line are joined by a space, separate lines by a newline.
  let buffer: Array<{ line: number; text: string }> = [];
  let bufferLength = 0;
  let startLine = 0;
  let endLine = 0;

  const flush = () => {
    const joined = buffer
      .map((piece, i) => (i === 0 ? '' : piece.line === buffer[i - 1]!.line ? ' ' : '\n') + piece.text)
      .join('')
      .trim();
    if (joined) passages.push({ ordinal: passages.length, lineStart: startLine, lineEnd: endLine, text: joined });
    buffer = [];
    bufferLength = 0;
  };

  lines.forEach((rawLine, index) => {
    const lineNumber = index + 1;
    const line = rawLine.trimEnd();
    if (!line.trim()) {
      // A blank line ends a paragraph: close the passage if it is long enough.
      if (bufferLength >= options.targetChars / 2) flush();
      return;
    }
    for (const piece of splitLongLine(line, options.maxChars)) {
      if (bufferLength > 0 && bufferLength + 1 + piece.length > options.targetChars) flush();
      if (bufferLength === 0) startLine = lineNumber;
      buffer.push({ line: lineNumber, text: piece });
      bufferLength += piece.length + (buffer.length > 1 ? 1 : 0);
      endLine = lineNumber;
      if (bufferLength >= options.targetChars) flush();
    }
  });
  flush();
  return passages;
}

/** Cuts a line into pieces of at most maxChars, preferring sentence then word boundaries. */
function splitLongLine(line: string, maxChars: number): string[] {
  if (line.length <= maxChars) return [line];
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
    if (cut < maxChars / 3) cut = window.lastIndexOf(' ');
    if (cut < maxChars / 3) cut = maxChars - 1;
    pieces.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trimStart();
  }
  if (rest.trim()) pieces.push(rest);
  return pieces;
}

/** Cuts a text to at most `max` characters around position `at`, marking cuts with an ellipsis. */
export function excerptAround(text: string, at: number, length: number, max: number): string {
  if (text.length <= max) return text;
  const room = max - 2; // two ellipses at most
  let start = Math.max(0, Math.min(at - Math.floor((room - length) / 2), text.length - room));
  let end = Math.min(text.length, start + room);
  start = Math.max(0, end - room);
  // Never half a character (an emoji is two UTF-16 units): a lone surrogate is not text the API would accept.
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start += 1;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
