import { Library, type RetryInfo } from '../../client/src/index.js';

/**
 * The API beside this page: /console -> /, and on AWS /<stage>/console -> /<stage>/.
 * The console talks to no other origin (the page's Content-Security-Policy allows only its own).
 */
export function apiBaseUrl(location: Location = window.location): string {
  return location.origin + location.pathname.replace(/\/console\/?$/, '/');
}

/** The project's typed client with the key the person entered; a 429 or 503 waits and retries (onRetry tells the page). */
export function connect(apiKey: string, onRetry?: (info: RetryInfo) => void): Library {
  return new Library({ baseUrl: apiBaseUrl(), apiKey, onRetry, fetch: (...args) => window.fetch(...args) });
}
