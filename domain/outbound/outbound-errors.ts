/**
 * Why an outbound fetch failed (domain/outbound/safe-fetch.ts). Browser-safe, so interfaces
 * can translate the code: the English detail beside it is for logs and support.
 */
export const OUTBOUND_ERROR_CODES = [
  "invalid_url",
  "blocked_address",
  "unresolvable",
  "network",
  "timeout",
  "too_large",
  "too_many_redirects",
  "http_status",
] as const;
export type OutboundErrorCode = (typeof OUTBOUND_ERROR_CODES)[number];

/** The longest address a person may type for an outbound fetch. */
export const MAX_URL_LENGTH = 2048;
