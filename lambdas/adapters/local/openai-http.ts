import { BackendUnavailableError } from '../../core/errors.js';

/** Where an OpenAI-compatible server is, and how to call it. */
export interface OpenAiServer {
  /** Base URL of the API, with or without the operation, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  url: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string;
  timeoutMs?: number;
}

/** The operation's URL: the base as given, or the base already ending in the operation (`/chat/completions`, `/embeddings`). */
export function openAiEndpoint(url: string, operation: string): string {
  // (?<!\/): the trailing slashes are tried from the first of the run only (linear on any URL).
  const base = url.replace(/(?<!\/)\/+$/, '');
  return base.endsWith(operation) ? base : `${base}${operation}`;
}

/** How long a throttled or refusing server is left alone, when it does not say (seconds). */
const THROTTLE_WAIT = 5;
const REFUSAL_WAIT = 30;

/** A server's HTTP error answer: BackendUnavailableError, with the status and the server's words for a refusal. */
export class OpenAiHttpError extends BackendUnavailableError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly status: number,
    readonly refusal: string,
  ) {
    super(message, retryAfterSeconds);
  }
}

/** How one call goes: the caller's signal (a request given up), and whether the answer streams. */
export interface OpenAiCallOptions {
  signal?: AbortSignal;
  /**
   * A streamed answer: the timeout is then the longest wait for the next
   * piece (the first included), not for the whole answer, which a slow
   * model may take minutes to write.
   */
  streamed?: boolean;
}

/**
 * POSTs a JSON body to an OpenAI-compatible server and returns its JSON
 * answer. Every failure is a BackendUnavailableError (503, safe to retry,
 * nothing kept): no answer or a timeout (retry in 1 s), HTTP 429 or 5xx
 * (Retry-After when given), and another 4xx, which says what the server
 * objected to (a wrong model name or key is the operator's to mend; a retry
 * after it is fixed succeeds). A call the caller's signal ends rejects with
 * the signal's reason.
 */
export async function postOpenAi(
  server: OpenAiServer,
  operation: string,
  body: unknown,
  what: string,
  options: OpenAiCallOptions = {},
): Promise<unknown> {
  const { response, done } = await openOpenAi(server, operation, body, what, options);
  try {
    return await response.json();
  } catch (error) {
    throw failure(error, what, options.signal, 'sent a malformed answer');
  } finally {
    done();
  }
}

/**
 * POSTs and returns the server's successful response, its body unread, with
 * the same failures as postOpenAi; `done` ends the timeout. With `streamed`,
 * `touch` restarts it (call it on every piece read).
 */
export async function openOpenAi(
  server: OpenAiServer,
  operation: string,
  body: unknown,
  what: string,
  options: OpenAiCallOptions = {},
): Promise<{ response: Response; touch: () => void; done: () => void }> {
  const timeoutMs = server.timeoutMs ?? 60_000;
  const timer = new AbortController();
  let handle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(handle);
    handle = setTimeout(() => timer.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  };
  const done = () => clearTimeout(handle);
  touch();
  const signal = options.signal ? AbortSignal.any([timer.signal, options.signal]) : timer.signal;
  let response: Response;
  try {
    response = await fetch(openAiEndpoint(server.url, operation), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(server.apiKey ? { authorization: `Bearer ${server.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    done();
    throw failure(error, what, options.signal, 'did not answer');
  }
  if (!response.ok) {
    done();
    const status = response.status;
    const retryAfter = Number(response.headers.get('retry-after'));
    const wait =
      Number.isFinite(retryAfter) && retryAfter > 0
        ? Math.ceil(retryAfter)
        : status === 429
          ? THROTTLE_WAIT
          : status >= 500
            ? 1
            : REFUSAL_WAIT;
    let reason = '';
    if (status >= 400 && status < 500 && status !== 429) reason = await refusalOf(response);
    else await response.body?.cancel();
    throw new OpenAiHttpError(`${what} answered HTTP ${status}${reason ? `: ${reason}` : ''}`, wait, status, reason);
  }
  return { response, touch: options.streamed ? touch : () => undefined, done };
}

/** A failure while calling or reading: the caller's own abort as it is, anything else BackendUnavailableError. */
export function failure(error: unknown, what: string, signal: AbortSignal | undefined, said: string): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof BackendUnavailableError) return error;
  return new BackendUnavailableError(`${what} ${said}`, 1, { cause: error });
}

/**
 * Reads a server-sent event stream (`data: ...` lines, events split by a
 * blank line, `:` comments) and hands each event's data to `onData`, until
 * `[DONE]` or the end of the body. Each piece read restarts the timeout.
 */
export async function readServerSentEvents(
  response: Response,
  what: string,
  call: { touch: () => void; done: () => void; signal?: AbortSignal },
  onData: (data: string) => void,
): Promise<void> {
  if (!response.body) throw new BackendUnavailableError(`${what} sent no answer`, 1);
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const dispatch = (): boolean => {
    const event = data.join('\n');
    data = [];
    if (event === '[DONE]') return true;
    if (event) onData(event);
    return false;
  };
  try {
    for await (const bytes of response.body) {
      call.touch();
      buffer += decoder.decode(bytes as Uint8Array, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (line === '') {
          if (dispatch()) return;
        } else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
        // Other fields (event:, id:, retry:) and comments (:) carry nothing here.
      }
    }
    buffer += decoder.decode();
    if (buffer.startsWith('data:')) data.push(buffer.slice(buffer[5] === ' ' ? 6 : 5).replace(/\r$/, ''));
    dispatch();
  } catch (error) {
    throw failure(error, what, call.signal, 'broke off its answer');
  } finally {
    call.done();
    // A stream left early ([DONE] or a failure in onData) is not read further.
    await response.body.cancel().catch(() => undefined);
  }
}

/** The server's own words for a refusal (OpenAI's `{error: {message}}`, Ollama's `{error}`, or its text), kept short. */
async function refusalOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let said = text;
  try {
    const parsed = JSON.parse(text) as { error?: string | { message?: string }; message?: string };
    said = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? parsed.message ?? text;
  } catch {
    // Not JSON: its text.
  }
  return said.replace(/\s+/g, ' ').trim().slice(0, 300);
}
