/**
 * Longest reason for a status change and longest internal note. The schemas enforce them; the
 * forms cap their fields with them (this module has no zod, so pages load it for free).
 */
export const REASON_MAX_LENGTH = 2000;
export const NOTE_MAX_LENGTH = 4000;
