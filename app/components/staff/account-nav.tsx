import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { cn } from "../ui/cn.ts";

/** The signed-in person's own pages: password and sessions, the app, passkeys. */
const ACCOUNT_PAGES = [
  { to: "/admin/account", key: "staff.account.nav" },
  { to: "/admin/account/security", key: "staff.mfa.security.menu" },
  { to: "/admin/account/passkeys", key: "staff.passkeys.nav" },
] as const;

/** The links between the account's pages, under each one's heading. */
export function AccountNav({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("staff.account.sections")} className={className}>
      <ul className="border-gold/30 flex flex-wrap gap-1 border-b">
        {ACCOUNT_PAGES.map((page) => (
          <li key={page.to}>
            <NavLink
              to={page.to}
              end
              className={({ isActive }) =>
                cn(
                  "text-heritage -mb-px block border-b-2 border-transparent px-3 py-2 text-sm",
                  "hover:border-gold/60 focus-visible:outline-2 focus-visible:outline-offset-2",
                  isActive && "border-heritage font-semibold",
                )
              }
            >
              {t(page.key)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
