import { NOT_IN_LIBRARY } from './prompt.js';

/**
 * Reads a model's reply as it streams in (the answer format of prompt.ts, a
 * JSON object written a few characters at a time) and passes on only the
 * text of its `answer` value, unescaped, as it arrives: never the JSON
 * punctuation, the other keys, the citations, nor NOT_IN_LIBRARY. It takes
 * the same replies judgeReply reads: the object alone, in a code fence
 * (the fence line is skipped), or, from a model that writes no JSON, plain
 * text (passed on as it is, until a `{` starts an object).
 *
 * What it passes on is the model's draft: the whole reply is validated once
 * it is complete (judgeReply), and a reply rejected then is replaced by the
 * service's "does not hold the answer" reply. A streamed NOT_IN_LIBRARY is
 * held back until it can no longer be one, so a refusal streams nothing.
 */
export class AnswerStream {
  private mode: 'start' | 'fence' | 'json' | 'plain' | 'done' = 'start';
  private depth = 0;
  private inString = false;
  private role: 'key' | 'answer' | 'other' = 'other';
  /** At depth 1, whether the next string is a key. */
  private expectKey = false;
  private key = '';
  private lastKey = '';
  private awaitingAnswer = false;
  /** Inside a string after a backslash: '' (what follows decides), or 'u' and the hex digits read so far; null otherwise. */
  private escape: string | null = null;
  private highSurrogate: number | null = null;
  private readonly filter = new SentinelFilter();
  private out = '';

  constructor(private readonly onDelta: (text: string) => void) {}

  /** A piece of the reply as the model wrote it. */
  push(chunk: string): void {
    for (const c of chunk) this.read(c);
    this.flush();
  }

  /** The reply is complete: passes on what was held back, unless it was NOT_IN_LIBRARY. */
  end(): void {
    if (this.mode === 'plain') this.finishAnswer();
    this.flush();
  }

  private flush(): void {
    if (this.out) this.onDelta(this.out);
    this.out = '';
  }

  private emit(text: string): void {
    this.out += this.filter.add(text);
  }

  private finishAnswer(): void {
    this.out += this.filter.end();
    this.mode = 'done';
  }

  private read(c: string): void {
    switch (this.mode) {
      case 'done':
        return;
      case 'start':
        if (c === '{') this.openObject();
        else if (c === '`') this.mode = 'fence';
        else if (!/\s/.test(c)) {
          this.mode = 'plain';
          this.emit(c);
        }
        return;
      case 'fence':
        // The fence's opening line (```json) ends at its newline.
        if (c === '\n') this.mode = 'start';
        return;
      case 'plain':
        if (c === '{') {
          // An object after words: the words were a preamble, the object is the reply.
          this.openObject();
        } else this.emit(c);
        return;
      case 'json':
        this.readJson(c);
    }
  }

  private openObject(): void {
    this.mode = 'json';
    this.depth = 1;
    this.expectKey = true;
  }

  private readJson(c: string): void {
    if (this.inString) {
      this.readString(c);
      return;
    }
    if (this.awaitingAnswer) {
      if (/\s/.test(c)) return;
      this.awaitingAnswer = false;
      if (c === '"') {
        this.inString = true;
        this.role = 'answer';
        return;
      }
      // null (or anything else that is not a string): nothing to pass on.
      this.finishAnswer();
      return;
    }
    if (c === '"') {
      this.inString = true;
      this.role = this.depth === 1 && this.expectKey ? 'key' : 'other';
      this.key = '';
    } else if (c === '{' || c === '[') this.depth += 1;
    else if (c === '}' || c === ']') {
      this.depth -= 1;
      if (this.depth <= 0) this.finishAnswer();
    } else if (this.depth === 1 && c === ',') this.expectKey = true;
    else if (this.depth === 1 && c === ':') {
      this.expectKey = false;
      if (this.lastKey === 'answer') this.awaitingAnswer = true;
    }
  }

  private readString(c: string): void {
    if (this.escape !== null) {
      this.readEscape(c);
      return;
    }
    if (c === '\\') {
      this.escape = '';
      return;
    }
    if (c === '"') {
      this.inString = false;
      this.text(null);
      if (this.role === 'key') this.lastKey = this.key;
      if (this.role === 'answer') this.finishAnswer();
      return;
    }
    this.text(c);
  }

  private readEscape(c: string): void {
    if (this.escape === '') {
      if (c === 'u') {
        this.escape = 'u';
        return;
      }
      this.escape = null;
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        b: '\b',
        f: '\f',
        '"': '"',
        '\\': '\\',
        '/': '/',
      };
      this.text(simple[c] ?? c);
      return;
    }
    // \uXXXX: the four hex digits after the u.
    const digits = this.escape + c;
    this.escape = digits;
    if (digits.length < 5) return;
    const unit = /^u[0-9a-f]{4}$/i.test(digits) ? Number.parseInt(digits.slice(1), 16) : Number.NaN;
    this.escape = null;
    if (Number.isNaN(unit)) {
      this.text('\uFFFD');
      return;
    }
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.text(null);
      this.highSurrogate = unit;
      return;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff && this.highSurrogate !== null) {
      const pair = String.fromCharCode(this.highSurrogate, unit);
      this.highSurrogate = null;
      this.text(pair);
      return;
    }
    this.text(String.fromCharCode(unit));
  }

  /** Adds decoded text to the current string (null: only settles a high surrogate left alone). */
  private text(t: string | null): void {
    if (this.highSurrogate !== null) {
      this.highSurrogate = null;
      this.add('\uFFFD');
    }
    if (t !== null) this.add(t);
  }

  private add(t: string): void {
    if (this.role === 'key') this.key += t;
    else if (this.role === 'answer') this.emit(t);
  }
}

/** Holds back the start of an answer while it may still be NOT_IN_LIBRARY; drops it if it is. */
class SentinelFilter {
  private held = '';
  private state: 'undecided' | 'pass' | 'drop' = 'undecided';

  add(text: string): string {
    if (this.state === 'pass') return text;
    if (this.state === 'drop') return '';
    this.held += text;
    const start = this.held.trimStart();
    if (NOT_IN_LIBRARY.startsWith(start)) return '';
    if (start.startsWith(NOT_IN_LIBRARY)) {
      this.state = 'drop';
      this.held = '';
      return '';
    }
    this.state = 'pass';
    const out = this.held;
    this.held = '';
    return out;
  }

  end(): string {
    if (this.state !== 'undecided') return '';
    const start = this.held.trimStart();
    this.state = 'pass';
    const out = start && start !== NOT_IN_LIBRARY ? this.held : '';
    this.held = '';
    return out;
  }
}
