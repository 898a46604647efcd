/**
 * What a 403 of the staff area carries to the layout's error boundary: the
 * signed-in admin's email, outside the company domain, and the page title to show.
 */
export interface AccessDeniedData {
  reason: "wrong_domain";
  email: string;
  title: string;
}

export function isAccessDenied(value: unknown): value is AccessDeniedData {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { reason?: unknown }).reason === "wrong_domain"
  );
}
