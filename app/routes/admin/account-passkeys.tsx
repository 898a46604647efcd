import { useTranslation } from "react-i18next";
import type { Route } from "./+types/account-passkeys";
import { PasskeysPanel } from "#app/components/auth/passkeys-panel.tsx";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { AccountNav } from "#app/components/staff/account-nav.tsx";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

export function loader({ context, request }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return { title: staffTitle(context, "staff.passkeys.title") };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

/** The signed-in staff member's passkeys: add, see and remove them. */
export default function AccountPasskeys() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader
        title={t("staff.passkeys.title")}
        description={t("staff.passkeys.pageIntro")}
      />
      <AccountNav />
      <PasskeysPanel role="staff" />
    </div>
  );
}
