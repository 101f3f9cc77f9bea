/**
 * The key of an `Authorization: Bearer <key>` header, or null when the header
 * is not one. The scheme is case-insensitive (RFC 9110, 11.1): "bearer
 * lib_..." is the same key. One reading for the authorizer, health and the
 * local gateway's rate limiter, so they never disagree on whose key it is.
 */
export function bearerKey(authorization: string | undefined): string | null {
  return /^Bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1] ?? null;
}
