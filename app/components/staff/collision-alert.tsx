import { useTranslation } from "react-i18next";
import type { CollidingEntry } from "../../../domain/calendar/calendar.schema.ts";
import { describeCollision } from "../../../domain/calendar/collision-text.ts";
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
