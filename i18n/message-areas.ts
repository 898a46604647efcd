/**
 * Which message areas a page needs, by its path. Apart from resources.ts (which imports every
 * language's messages) because the browser runs it too (the root's shouldRevalidate): importing
 * it from there would put all four languages into the root chunk.
 */

/**
 * The areas whose messages a page may need on top of the common ones: the staff's and the
 * owner's, and the guest's request page (`/requests/{token}`: the offer, its payments, the
 * status and the conversation).
 */
export type MessageArea = "staff" | "owner" | "guestRequest";

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The message areas the page at `pathname` needs beyond the common ones. The owner pages
 * (verify, dashboard) get the owner's; the staff estate pages show owner fields, so they get
 * both; the rest of the staff area gets the staff's; the guest's request page its own.
 */
export function messageAreasOf(pathname: string): MessageArea[] {
  // A client navigation's data request names the page `/admin/dashboard.data` (`/_root.data`
  // for `/`): the same page, the same messages.
  const path =
    pathname
      .replace(/\.data$/, "")
      .replace(/^\/_root$/, "/")
      .replace(/\/+$/, "") || "/";
  if (isUnder(path, "/onboard") || isUnder(path, "/admin/dashboard")) return ["owner"];
  if (isUnder(path, "/admin/estates")) return ["staff", "owner"];
  if (isUnder(path, "/admin")) return ["staff"];
  if (isUnder(path, "/requests")) return ["guestRequest"];
  return [];
}
