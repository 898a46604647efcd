/** The public availability call's window (browser-safe: the contract and the pages use it). */

/** The most one call may ask about: 18 months, the longest booking window. */
export const AVAILABILITY_MAX_MONTHS = 18;
/** What a call without `to` gets, and what the pages show: a year. */
export const AVAILABILITY_DEFAULT_MONTHS = 12;
