/** A percent sign that starts no escape ("100%"): URLSearchParams keeps it as written, and so does this check. */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/g;

const decode = (raw: string) => decodeURIComponent(raw.replace(/\+/g, ' ').replace(STRAY_PERCENT, '%25'));

/**
 * The name of the first query parameter whose escapes are not UTF-8
 * (`end_user_id=%FF`), or null when every one decodes. URLSearchParams reads
 * such bytes as U+FFFD, so `%FE` and `%FF` would both reach the end user
 * "\uFFFD" (and be stored so), where a path segment with the same bytes is
 * refused: a query is refused the same way.
 */
export function undecodableQueryParameter(requestUrl: string): string | null {
  const query = requestUrl.split('#', 1)[0]!.split('?').slice(1).join('?');
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const [rawName = '', ...rest] = pair.split('=');
    let name: string;
    try {
      name = decode(rawName);
    } catch {
      return 'a query parameter name';
    }
    try {
      decode(rest.join('='));
    } catch {
      return name;
    }
  }
  return null;
}
