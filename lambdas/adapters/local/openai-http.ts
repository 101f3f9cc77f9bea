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

/**
 * POSTs a JSON body to an OpenAI-compatible server and returns its JSON
 * answer. Every failure is a BackendUnavailableError (503, safe to retry,
 * nothing kept): no answer or a timeout (retry in 1 s), HTTP 429 or 5xx
 * (Retry-After when given), and another 4xx, which says what the server
 * objected to (a wrong model name or key is the operator's to mend; a retry
 * after it is fixed succeeds).
 */
export async function postOpenAi(server: OpenAiServer, operation: string, body: unknown, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(openAiEndpoint(server.url, operation), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(server.apiKey ? { authorization: `Bearer ${server.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(server.timeoutMs ?? 60_000),
    });
  } catch (error) {
    throw new BackendUnavailableError(`${what} did not answer`, 1, { cause: error });
  }
  if (!response.ok) {
    const status = response.status;
    const retryAfter = Number(response.headers.get('retry-after'));
    const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : status === 429 ? THROTTLE_WAIT : status >= 500 ? 1 : REFUSAL_WAIT;
    const reason = status >= 400 && status < 500 && status !== 429 ? await refusalOf(response) : (await response.body?.cancel(), '');
    throw new BackendUnavailableError(`${what} answered HTTP ${status}${reason ? `: ${reason}` : ''}`, wait);
  }
  try {
    return await response.json();
  } catch (error) {
    throw new BackendUnavailableError(`${what} sent a malformed answer`, 1, { cause: error });
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
