import { ArrowLeft } from "lucide-react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/** The small "← back" link of the estate pages. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link
      to={to}
      className="text-heritage inline-flex items-center gap-2 text-sm font-medium hover:underline"
    >
      <ArrowLeft aria-hidden className="size-4" />
      {label}
    </Link>
  );
}

/**
 * The error view of a route that shows one estate: its own not-found texts for a 404 (with a
 * way back to the castle network), the generic notice for anything else.
 */
export function EstateRouteError(props: {
  notFoundTitle: string;
  notFoundText: string;
  backLabel: string;
}) {
  const { t } = useTranslation();
  const error = useRouteError();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto max-w-3xl px-6 py-24 text-center">
      <h1 className="text-heritage text-5xl font-semibold">
        {isNotFound ? props.notFoundTitle : t("errors.genericTitle")}
      </h1>
      <p className="text-muted mt-4">{isNotFound ? props.notFoundText : t("errors.generic")}</p>
      <div className="mt-10">
        <BackLink to="/castles" label={props.backLabel} />
      </div>
    </section>
  );
}
