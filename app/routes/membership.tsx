import { useTranslation } from "react-i18next";
import type { Route } from "./+types/membership";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { formIsland } from "../components/forms/form-island.tsx";

/** A form sent without JavaScript: the page again, with what the form needs. */
export { action } from "../components/forms/form-island.tsx";

/** The form's code loads when the guest engages with it or the page is idle (not with the page). */
const MembershipForm = formIsland(
  () => import("../components/forms/membership-form.tsx").then((module) => module.MembershipForm),
  "mt-10 min-h-screen max-w-3xl",
);

export async function loader({ context }: Route.LoaderArgs) {
  await MembershipForm.ready();
  const { language, botCheck } = context.get(requestInfoContext);
  return {
    ...contentPageMeta(language, "forms.membership.title", "forms.membership.metaDescription"),
    botCheck,
  };
}

/** A client-side navigation waits for the form's code too (see `withCode`). */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return MembershipForm.withCode(serverLoader());
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function Membership({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader
        title={t("forms.membership.title")}
        description={t("forms.membership.subtitle")}
      />
      <MembershipForm botCheck={loaderData.botCheck} />
    </PageFrame>
  );
}
