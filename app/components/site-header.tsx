import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useLocation } from "react-router";
import { Menu, X } from "lucide-react";
import { SITE } from "#content/site.ts";
import { ExternalLink } from "./external-link.tsx";
import { LanguageMenu } from "./language-links.tsx";
import { HEADER_LINKS } from "./site-nav.ts";

/** The announcement banner and the nav bar, kept at the top of the viewport. */
export function SiteHeader() {
  const { t } = useTranslation();
  const menuId = useId();
  const { pathname } = useLocation();
  // The menu is open on the page where it was opened; navigating elsewhere closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const isMenuOpen = menuOpenOn === pathname;

  return (
    <header className="sticky top-0 z-40">
      <a
        href="#main"
        className="bg-paper text-ink sr-only z-50 px-4 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        {t("a11y.skipToContent")}
      </a>
      <div className="bg-burgundy text-ivory" data-testid="announcement-banner">
        <p className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-3 px-4 py-2 text-center text-xs sm:text-sm">
          <span>{t("banner.announcement", { token: SITE.token })}</span>
          <ExternalLink
            href={SITE.links.tokenSale}
            className="font-semibold underline underline-offset-4"
          >
            {t("banner.cta")}
          </ExternalLink>
        </p>
      </div>
      <nav
        aria-label={t("a11y.mainNavigation")}
        className="border-gold/40 bg-heritage text-ivory border-b"
      >
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link
            to="/"
            className="flex items-center gap-3"
            aria-label={`${SITE.brand}, ${t("nav.home")}`}
          >
            <img src="/brand/crest.svg" alt="" width={36} height={36} className="size-9" />
            <span className="font-display text-2xl font-semibold tracking-wide">{SITE.brand}</span>
          </Link>
          <ul className="hidden items-center gap-1 lg:flex">
            {HEADER_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className="text-ivory/90 hover:text-ivory aria-[current=page]:text-gold-light rounded-sm px-3 py-2 text-sm hover:bg-white/10"
                >
                  {t(link.label)}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="flex items-center gap-1">
            <LanguageMenu />
            <button
              type="button"
              className="inline-flex size-10 items-center justify-center rounded-sm hover:bg-white/10 lg:hidden"
              aria-expanded={isMenuOpen}
              aria-controls={menuId}
              aria-label={isMenuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
              onClick={() => setMenuOpenOn(isMenuOpen ? null : pathname)}
            >
              {isMenuOpen ? (
                <X aria-hidden className="size-5" />
              ) : (
                <Menu aria-hidden className="size-5" />
              )}
            </button>
          </div>
        </div>
        <div id={menuId} hidden={!isMenuOpen} className="border-t border-white/10 lg:hidden">
          <ul className="mx-auto max-w-7xl px-4 py-3">
            {[{ to: "/", label: "nav.home" } as const, ...HEADER_LINKS].map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end
                  className="text-ivory/90 aria-[current=page]:text-gold-light block rounded-sm px-3 py-3 text-base hover:bg-white/10"
                >
                  {t(link.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      </nav>
    </header>
  );
}
