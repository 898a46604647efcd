/**
 * The one check of an address to return to after a sign-in (`redirectTo`), used by the server
 * (loaders that redirect) and the browser (the sign-in form that navigates): a path on this
 * site, or null.
 *
 * Browsers and routers read more than `//host` as another site: `/\host`, `/<tab>/host`, and
 * paths that only become `//host` once normalised (`/.//host`, `/a/..//host`, or `%2F` and
 * `%2e` decoded by a later step). So the check is strict rather than clever: one leading `/`,
 * no backslash, white space or control character anywhere, no empty, `.` or `..` segment and
 * no encoded slash, backslash or dot in the path, and the URL parser must agree that the value
 * stays on this origin with a path that starts with a single `/`. Staff pages need none of
 * what is refused; the query and fragment may hold any encoded text.
 */

/** Longer than any staff page's address with its filters; longer is refused, not cut. */
const MAX_LENGTH = 2048;
const BASE = "http://local.invalid";

/** `value` when it is a safe local path (returned as given), else null. */
export function localPathOrNull(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  // One leading slash; no backslash, white space (Unicode's too) or control character at all.
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (!value.startsWith("/") || /[\\\s\x00-\x1f\x7f-\x9f]/.test(value)) return null;
  const pathEnd = value.search(/[?#]/);
  const path = pathEnd === -1 ? value : value.slice(0, pathEnd);
  // No `//` anywhere in the path, no `.` or `..` segment, no encoded slash, backslash or dot.
  if (path.includes("//") || /(^|\/)\.{1,2}(\/|$)/.test(path) || /%(2f|5c|2e)/i.test(path))
    return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || !url.pathname.startsWith("/") || url.pathname.startsWith("//"))
    return null;
  return value;
}
