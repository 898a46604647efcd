import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { SITE } from "../../../content/site.ts";
import { LanguageMenu } from "../language-links.tsx";
import { cn } from "../ui/cn.ts";
import { LogoutButton } from "./logout-button.tsx";

const NAV = [
  { to: "/admin/booking-requests", key: "staff.shell.requests" },
  { to: "/admin/estates", key: "staff.shell.estates" },
  { to: "/admin/mail", key: "staff.shell.mail" },
] as const;

/**
 * The staff area's header (spec point 2): 'Admin Dashboard', the signed-in email, the staff
 * pages, the language links (plain `?lang=` links, remembered for the account) and Logout.
 */
export function StaffHeader({ email }: { email: string }) {
  const { t } = useTranslation();
  return (
    <header className="bg-heritage text-ivory">
      <div className="mx-auto flex max-w-[100rem] flex-wrap items-center gap-x-8 gap-y-3 px-4 py-3 sm:px-6">
        <Link
          to="/admin/booking-requests"
          className="flex items-baseline gap-3 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-4"
        >
          <span className="font-display text-2xl font-semibold">{SITE.brand}</span>
          <span className="text-ivory/85 text-sm tracking-[0.12em] uppercase">
            {t("staff.shell.dashboard")}
          </span>
        </Link>
        <nav aria-label={t("staff.shell.navigation")} className="flex-1">
          <ul className="flex flex-wrap gap-1">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    cn(
                      "block rounded-sm px-3 py-2 text-sm hover:bg-white/10",
                      isActive && "bg-white/15 font-semibold",
                    )
                  }
                >
                  {t(item.key)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <LanguageMenu />
          <p className="text-sm" data-testid="staff-email">
            <span className="sr-only">{t("staff.shell.signedInAs")} </span>
            {email}
          </p>
          <LogoutButton />
        </div>
      </div>
    </header>
  );
}
