import type { EndpointResult } from './endpoint.js';
import { errorBody, toHttpError } from './errors.js';
import { logger } from './observability.js';

/**
 * Server-sent events (the WHATWG HTML "text/event-stream" format), for
 * endpoints that stream an answer when asked to (POST /v1/chat with
 * `Accept: text/event-stream`; docs/api-notes.md, "Streamed replies").
 * An endpoint returns an EndpointResult with a `stream`; the local gateway
 * writes it as it comes, and on AWS the chat function writes it through
 * Lambda response streaming (wiring/aws/response-streaming.ts).
 */
export const EVENT_STREAM = 'text/event-stream';

export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': `${EVENT_STREAM}; charset=utf-8`,
  // Nothing on the way may keep or transform the stream; proxies that buffer (nginx) are asked not to.
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** A comment line every this often while no event is sent, so idle connections are not closed on the way. */
export const HEARTBEAT_MS = 15_000;

/**
 * One event: its name and its data, JSON on one line (JSON.stringify
 * escapes every line break, so the data never spans lines).
 */
export function formatEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const slash = range.indexOf('/');
    if (slash <= 0) continue;
    let q = 1;
    for (const param of params) {
      if (!param.startsWith('q=')) continue;
      const value = Number(param.slice(2));
      q = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
    }
    ranges.push({ type: range.slice(0, slash), subtype: range.slice(slash + 1), q });
  }
  return ranges;
}

/** The quality the Accept ranges give a media type: the most specific range that matches it wins (RFC 9110, 12.5.1); 0 when none does. */
function quality(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best: { specificity: number; q: number } | null = null;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/**
 * Whether the caller asked for server-sent events: `text/event-stream` is
 * acceptable and preferred over JSON (a higher quality, or JSON not
 * acceptable at all). No Accept, `*\/*`, JSON, or both equally: JSON, the
 * default.
 */
export function prefersEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = mediaRanges(accept);
  const stream = quality(ranges, 'text', 'event-stream');
  return stream > 0 && stream > quality(ranges, 'application', 'json');
}

/** Where a streaming endpoint sends its events. */
export interface EventSink {
  send(event: string, data: unknown): void;
}

/**
 * Runs `produce`, which sends events to the sink as its work goes on, and
 * answers with them as a stream (200, text/event-stream). The answer is
 * decided by the first event: a failure before `produce` sent any is thrown
 * (the endpoint answers it as usual: the contract's status and JSON error
 * body); a failure after is the stream's last event, `error`, whose data is
 * the contract's error body. A comment line (`: keep-alive`) is sent after
 * `heartbeatMs` without an event. The stream always runs to its end: a
 * reader that goes away does not stop `produce`, whose work (a chat: its
 * memory, its charge) completes as it would for a JSON answer.
 */
export async function eventStream(
  requestId: string,
  produce: (sink: EventSink) => Promise<void>,
  options: { heartbeatMs?: number } = {},
): Promise<EndpointResult> {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const queue: string[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const push = (chunk: string) => {
    queue.push(chunk);
    wake?.();
  };
  let begun = false;
  let begin!: () => void;
  let refuse!: (error: unknown) => void;
  const first = new Promise<void>((resolve, reject) => {
    begin = resolve;
    refuse = reject;
  });
  const sink: EventSink = {
    send(event, data) {
      if (ended) return;
      push(formatEvent(event, data));
      if (!begun) {
        begun = true;
        begin();
      }
    },
  };
  produce(sink).then(
    () => {
      ended = true;
      wake?.();
      begin();
    },
    (error: unknown) => {
      if (!begun) return refuse(error);
      const http = toHttpError(error);
      if (http.status >= 500) logger.error('request failed', { error: error as Error });
      push(formatEvent('error', errorBody(http, requestId)));
      ended = true;
      wake?.();
    },
  );
  await first;

  async function* chunks(): AsyncGenerator<string> {
    for (;;) {
      if (queue.length) {
        yield queue.splice(0).join('');
        continue;
      }
      if (ended) return;
      let timer: NodeJS.Timeout | undefined;
      const quiet = await new Promise<boolean>((resolve) => {
        wake = () => resolve(false);
        timer = setTimeout(() => resolve(true), heartbeatMs);
      });
      wake = null;
      clearTimeout(timer);
      if (quiet && !queue.length && !ended) yield ': keep-alive\n\n';
    }
  }
  return { status: 200, headers: { ...EVENT_STREAM_HEADERS }, stream: chunks() };
}
