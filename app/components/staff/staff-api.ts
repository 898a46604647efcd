/**
 * A local path to return to after sign-in, or null. It must start with one `/` and hold no
 * backslash, whitespace or control character: browsers read `//host`, `/\host` and `/<tab>/host`
 * as another site.
 */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (!value || !/^\/(?![/\\])[^\s\\\x00-\x1f\x7f]*$/.test(value)) return null;
  return value;
}

/** The staff area's home: the inbox. */
export const STAFF_HOME = "/admin/booking-requests";
