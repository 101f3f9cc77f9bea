/**
 * Reads server-sent events (the HTML standard's `text/event-stream` format)
 * from a fetch body, in Node 20+ and browsers: lines end with CRLF, LF or
 * CR; `event:` names the event (default `message`), `data:` lines are joined
 * with line feeds, a blank line dispatches; comments (`:`), `id:` and
 * `retry:` are read past.
 */
export interface ServerSentEvent {
  event: string;
  data: string;
}

export interface ReadOptions {
  /** The longest wait for the next chunk, in milliseconds; then `onIdle` is called (it should cancel the request). */
  idleMs?: number;
  onIdle?: () => void;
}

async function* lines(stream: ReadableStream<Uint8Array>, options: ReadOptions): AsyncGenerator<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      if (options.idleMs && options.onIdle) timer = setTimeout(options.onIdle, options.idleMs);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } finally {
        if (timer !== undefined) clearTimeout(timer);
      }
      buffer += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 0x0a && c !== 0x0d) continue;
        // A CR at the very end may be the first half of a CRLF still to come.
        if (c === 0x0d && i === buffer.length - 1 && !chunk.done) break;
        yield buffer.slice(start, i);
        if (c === 0x0d && buffer.charCodeAt(i + 1) === 0x0a) i += 1;
        start = i + 1;
      }
      buffer = buffer.slice(start);
      if (chunk.done) {
        if (buffer) yield buffer;
        return;
      }
    }
  } finally {
    // Leaving early (the consumer stopped, or failed): the body is not read any further.
    reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The events of a `text/event-stream` body, in order. */
export async function* readEvents(
  stream: ReadableStream<Uint8Array>,
  options: ReadOptions = {},
): AsyncGenerator<ServerSentEvent> {
  let event = '';
  let data: string[] = [];
  for await (const line of lines(stream, options)) {
    if (line === '') {
      if (data.length) yield { event: event || 'message', data: data.join('\n') };
      event = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
}
