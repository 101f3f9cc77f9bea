/**
 * What the console remembers: the API key and the chosen end user, in this tab's
 * session storage only (gone when the tab closes; "Sign out" forgets them now).
 */
const KEY = 'library-console.api-key';
const END_USER = 'library-console.end-user';

export interface Session {
  apiKey: string;
  /** The end user whose library is shown; undefined: the shared library. */
  endUser?: string;
}

export function loadSession(): Session | null {
  const apiKey = sessionStorage.getItem(KEY);
  if (!apiKey) return null;
  return { apiKey, endUser: sessionStorage.getItem(END_USER) || undefined };
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, session.apiKey);
  if (session.endUser) sessionStorage.setItem(END_USER, session.endUser);
  else sessionStorage.removeItem(END_USER);
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(END_USER);
}
