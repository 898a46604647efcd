import { useTranslation } from "react-i18next";
import { utcToday } from "#domain/requests/dates.ts";
import { countryOptions } from "#domain/requests/summary.ts";
import type { Route } from "./+types/booking-request";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { formIsland } from "../components/forms/form-island.tsx";

/** A form sent without JavaScript: the page again, with what the form needs. */
export { action } from "../components/forms/form-island.tsx";

/** The form's code loads when the guest engages with it or the page is idle (not with the page). */
const BookingRequestForm = formIsland(
  () =>
    import("../components/forms/booking-request-form.tsx").then(
      (module) => module.BookingRequestForm,
    ),
  "mt-10 min-h-screen max-w-4xl",
);

export async function loader({ context }: Route.LoaderArgs) {
  await BookingRequestForm.ready();
  const { language, botCheck } = context.get(requestInfoContext);
  return {
    ...contentPageMeta(
      language,
      "forms.bookingRequest.title",
      "forms.bookingRequest.metaDescription",
    ),
    countries: countryOptions(language),
    botCheck,
    /** The server's date; the browser replaces it with the guest's own after hydration. */
    today: utcToday(),
  };
}

/** A client-side navigation waits for the form's code too (see `withCode`). */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return BookingRequestForm.withCode(serverLoader());
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function BookingRequest({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader
        title={t("forms.bookingRequest.title")}
        description={t("forms.bookingRequest.subtitle")}
      />
      <BookingRequestForm
        countries={loaderData.countries}
        botCheck={loaderData.botCheck}
        serverToday={loaderData.today}
      />
    </PageFrame>
  );
}
