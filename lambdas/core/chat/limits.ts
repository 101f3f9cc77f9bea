/** The chat's limits (API.md, "POST /v1/chat"). */
export const CHAT_LIMITS = {
  questionChars: 4000,
} as const;
