import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/onboard-verify";
import { requestInfoContext, sessionContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { VerifyFlow } from "../components/owner/verify-flow.tsx";
import { PageFrame, PageHeader } from "../components/page-header.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const session = context.get(sessionContext);
  return {
    ...contentPageMeta(language, "owner.verify.title", "owner.verify.metaDescription"),
    // An owner who is signed in already is offered the way back to the dashboard.
    signedInOwner: session?.role === "owner" ? session.ownerEmail : null,
  };
}

export function headers() {
  // The page can name the signed-in owner; codes are typed into it.
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  }),
  { name: "robots", content: "noindex" },
];

/** Owner verify: email, then the emailed code, then the claim. */
export default function OnboardVerify({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader title={t("owner.verify.title")} description={t("owner.verify.intro")} />
      {loaderData.signedInOwner && (
        <p
          className="border-gold/50 bg-paper text-ink mt-8 max-w-xl rounded-sm border px-4 py-3"
          data-testid="signed-in-owner"
        >
          {t("owner.verify.alreadySignedIn", { email: loaderData.signedInOwner })}{" "}
          <Link
            to="/admin/dashboard"
            className="text-heritage font-medium underline underline-offset-4"
          >
            {t("owner.verify.openDashboard")}
          </Link>
        </p>
      )}
      <div className="mt-10">
        <VerifyFlow />
      </div>
    </PageFrame>
  );
}
