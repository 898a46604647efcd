/**
 * The page a request is for, as a local path and search. React Router's client navigations ask
 * for a page's data at `<path>.data` (the root's at `/_root.data`, an index route's with
 * `?index`) and name the routes wanted in `_routes` (older versions: `_data`): a sign-in that
 * came back to that address would land on a bare data answer or a 404. Those marks are removed.
 */
export function pageAddressOf(url: URL): string {
  let path = url.pathname;
  if (path === "/_root.data") path = "/";
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  if (path.endsWith("/_index")) path = path.slice(0, -"/_index".length) || "/";
  const search = new URLSearchParams(url.search);
  for (const name of ["_data", "_routes", "index"]) search.delete(name);
  const query = search.toString();
  return `${path}${query ? `?${query}` : ""}`;
}

/** `pageAddressOf` for a local path as written in `redirectTo`. */
export function pageAddressOfPath(path: string): string {
  return pageAddressOf(new URL(path, "http://localhost"));
}
