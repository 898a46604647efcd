import { useTranslation } from "react-i18next";
import type { CollidingEntry, ImportedBusy } from "#domain/calendar/calendar.schema.ts";
import { describeCollision, describeImportedBusy } from "#domain/calendar/collision-text.ts";
import { Alert, AlertList, AlertTitle } from "../ui/alert.tsx";

/**
 * What holds the nights a request or block wants: the stays and blocks of the estate, each
 * with its reference or kind and dates. Shown before a confirmation and after a refused one.
 */
export function CollisionAlert({
  title,
  collisions,
  variant = "warning",
}: {
  title: string;
  collisions: readonly CollidingEntry[];
  variant?: "warning" | "error";
}) {
  const { t, i18n } = useTranslation();
  return (
    <Alert variant={variant}>
      <AlertTitle>{title}</AlertTitle>
      <AlertList
        items={collisions.map((entry) =>
          describeCollision((key, params) => t(key, params), i18n.language, entry),
        )}
      />
    </Alert>
  );
}

/**
 * The busy times imported calendars hold on a request's nights, each with its feed and dates.
 * They do not refuse a stay (the other site's booking may be gone), so this only warns.
 */
export function ImportedBusyAlert({
  title,
  importedBusy,
}: {
  title: string;
  importedBusy: readonly ImportedBusy[];
}) {
  const { t, i18n } = useTranslation();
  return (
    <Alert variant="warning" data-testid="imported-busy">
      <AlertTitle>{title}</AlertTitle>
      <AlertList
        items={importedBusy.map((busy) =>
          describeImportedBusy((key, params) => t(key, params), i18n.language, busy),
        )}
      />
    </Alert>
  );
}
