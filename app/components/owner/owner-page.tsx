import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ArrowLeft, LogOut } from "lucide-react";
import { SITE } from "#content/site.ts";
import { LanguageMenu } from "../language-links.tsx";
import { Button } from "../ui/button.tsx";
import { useOwnerLogout } from "./use-owner-logout.ts";

/** The skip link of a page without the public header. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main"
      className="bg-paper text-heritage sr-only z-50 rounded-sm px-4 py-2 font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      {t("a11y.skipToContent")}
    </a>
  );
}

/** The brand and 'Owner area' of the owner pages' header. */
function Brand() {
  const { t } = useTranslation();
  return (
    <Link
      to="/"
      className="flex items-baseline gap-3 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-4"
    >
      <span className="font-display text-2xl font-semibold">{SITE.brand}</span>
      <span className="text-ivory/85 text-sm tracking-[0.12em] uppercase">
        {t("owner.dashboard.area")}
      </span>
    </Link>
  );
}

/**
 * The dashboard's header: the brand, the language menu, who is signed in and Logout for an
 * owner, or 'Back to estates' for a member of staff looking at an estate.
 */
export function OwnerHeader({
  actor,
  estateId,
}: {
  actor: { role: "owner" | "staff"; email: string };
  estateId: number;
}) {
  const { t } = useTranslation();
  const { logout, isPending } = useOwnerLogout();
  return (
    <header className="bg-heritage text-ivory">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3 sm:px-6">
        <Brand />
        <div className="ml-auto flex flex-wrap items-center gap-3">
          <LanguageMenu />
          <p className="max-w-full truncate text-sm" data-testid="owner-email">
            <span className="sr-only">{t("owner.dashboard.signedInAs")} </span>
            {actor.email}
          </p>
          {actor.role === "owner" ? (
            <Button
              type="button"
              size="sm"
              variant="onDark"
              onClick={() => void logout()}
              disabled={isPending}
              data-testid="logout"
            >
              <LogOut aria-hidden className="size-4" />
              {isPending ? t("owner.dashboard.loggingOut") : t("owner.dashboard.logout")}
            </Button>
          ) : (
            <Link
              to={`/admin/estates/${estateId}`}
              className="border-ivory/60 inline-flex min-h-9 items-center gap-2 rounded-sm border px-3 py-1.5 text-sm font-medium hover:bg-white/10"
              data-testid="back-to-estates"
            >
              <ArrowLeft aria-hidden className="size-4" />
              {t("owner.dashboard.backToEstates")}
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}

/** An owner page with one centred card (no estate, access denied, not found). */
export function OwnerPlainPage({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SkipLink />
      <header className="bg-heritage text-ivory">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-4 sm:px-6">
          <Brand />
          <div className="ml-auto">
            <LanguageMenu />
          </div>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="flex flex-1 justify-center px-4 py-12 focus:outline-none sm:py-20"
      >
        <div className="w-full max-w-lg">{children}</div>
      </main>
    </>
  );
}
