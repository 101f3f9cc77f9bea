/** The contract's limits (API.md, "Limits"), in one place. */
export const LIMITS = {
  batchItems: 20,
  // "6 MB" as the contract writes it (it writes MiB where it means them): under Lambda's own 6,291,456 bytes.
  requestBodyBytes: 6_000_000,
  fileBytes: 4 * 1024 * 1024,
  textBytes: 2 * 1024 * 1024,
  titleChars: 512,
  sourceRefChars: 2048,
  filenameChars: 255,
  endUserIdChars: 256,
  queryChars: 1000,
  grepPatternChars: 512,
  snippetChars: 500,
  search: { min: 1, max: 50, default: 10 },
  grep: { min: 1, max: 200, default: 50 },
  documents: { min: 1, max: 100, default: 20 },
  endUsers: { min: 1, max: 100, default: 20 },
  /** GET /v1/documents/{id}/content: lines per page. */
  contentLines: { min: 1, max: 5000, default: 1000 },
} as const;
