import type { RequestKind } from "#domain/requests/options.ts";

/**
 * The toast after a status change, in the words of the request's kind: a membership
 * application is not a booking request.
 */
export function statusChangedToast(
  kind: RequestKind,
  t: (key: string) => string,
): { title: string; description: string } {
  return {
    title: t("staff.change.successTitle"),
    description: t(`staff.change.success.${kind}`),
  };
}
