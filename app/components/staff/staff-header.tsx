import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { SITE } from "#content/site.ts";
import { rememberStaffLanguage } from "#domain/staff/staff-auth.contract.ts";
import type { Language } from "#i18n/config.ts";
import { callApi } from "#app/api-client.ts";
import { LanguageMenu } from "../language-links.tsx";
import { cn } from "../ui/cn.ts";
import { LogoutButton } from "./logout-button.tsx";

const NAV = [
  { to: "/admin/booking-requests", key: "staff.shell.requests" },
  { to: "/admin/estates", key: "staff.shell.estates" },
  { to: "/admin/mail", key: "staff.shell.mail" },
  { to: "/admin/webhooks", key: "staff.webhooks.nav" },
  { to: "/admin/accounts", key: "staff.accounts.nav" },
  { to: "/admin/security", key: "staff.securityLog.nav" },
  { to: "/admin/privacy", key: "staff.privacy.nav" },
] as const;

/**
 * Stores a language chosen in the header for the account (the next sign-in opens in it). The
 * `?lang=` link itself only shows the page in that language: a GET stores nothing. Best effort:
 * the page changes language either way, and the next choice tries again.
 */
function rememberLanguage(language: Language) {
  void callApi(rememberStaffLanguage, { body: { language } });
}

/**
 * The staff area's header: 'Admin Dashboard', the signed-in email, the staff
 * pages, the language links (each choice stored for the account by rememberLanguage) and Logout.
 */

export function StaffHeader({ email }: { email: string }) {
  const { t } = useTranslation();
  return (
    <header className="bg-heritage text-ivory">
      <div className="mx-auto flex max-w-[100rem] flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
        <Link
          to="/admin/booking-requests"
          className="flex items-baseline gap-3 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-4"
        >
          <span className="font-display text-2xl font-semibold">{SITE.brand}</span>
          {/* Between a tablet and a wide screen the nav needs the room: read, not shown. */}
          <span className="text-ivory/85 text-sm tracking-[0.12em] uppercase lg:max-2xl:sr-only">
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
                      "block rounded-sm px-2 py-2 text-sm hover:bg-white/10",
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
          <LanguageMenu onChoose={rememberLanguage} />
          {/* The signed-in email is the way to the account's own pages (password, sessions,
              second factors). */}
          <Link
            to="/admin/account"
            title={`${t("staff.account.nav")}: ${email}`}
            className="block max-w-[16rem] truncate rounded-sm px-2 py-2 text-sm underline underline-offset-4 hover:bg-white/10"
            data-testid="staff-email"
          >
            <span className="sr-only">
              {t("staff.account.nav")}, {t("staff.shell.signedInAs")}{" "}
            </span>
            {email}
          </Link>
          <LogoutButton />
        </div>
      </div>
    </header>
  );
}
