import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SITE } from "#content/site.ts";
import { ExternalLink } from "./external-link.tsx";
import { LanguageList } from "./language-links.tsx";
import { FOOTER_LINKS } from "./site-nav.ts";

/**
 * The public pages' footer. `year` is the copyright year as the server saw it (the root
 * loader's), so the server's and the browser's renders agree.
 */
export function SiteFooter({ year }: { year: number | undefined }) {
  const { t } = useTranslation();
  return (
    // Below every page's first screen (bar the shortest): laid out only as it nears the screen.
    <footer className="border-gold bg-heritage text-ivory mt-24 border-t-2 [contain-intrinsic-size:auto_24rem] [content-visibility:auto]">
      <div className="mx-auto grid max-w-7xl gap-10 px-6 py-14 md:grid-cols-[1.4fr_1fr_1fr]">
        <div>
          <Link
            to="/"
            className="inline-flex items-center gap-3"
            aria-label={`${SITE.brand}, ${t("nav.home")}`}
          >
            <img src="/brand/crest.svg" alt="" width={44} height={44} className="size-11" />
            <span className="font-display text-3xl font-semibold">{SITE.brand}</span>
          </Link>
          <p className="text-ivory/80 mt-4 max-w-sm text-sm leading-relaxed">
            {t("footer.tagline")}
          </p>
        </div>
        <nav aria-label={t("a11y.footerNavigation")}>
          <h2 className="text-gold-light font-sans text-xs font-semibold tracking-[0.2em] uppercase">
            {t("footer.explore")}
          </h2>
          <ul className="mt-4 grid grid-cols-2 gap-x-6 gap-y-2 text-sm">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-ivory/85 hover:text-ivory hover:underline">
                  {t(link.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="space-y-8">
          <div>
            <h2 className="text-gold-light font-sans text-xs font-semibold tracking-[0.2em] uppercase">
              {t("footer.follow")}
            </h2>
            <ul aria-label={t("a11y.socialLinks")} className="mt-4 flex gap-4 text-sm">
              <li>
                <ExternalLink
                  href={SITE.links.x}
                  className="text-ivory/85 hover:text-ivory hover:underline"
                >
                  {t("footer.x")}
                </ExternalLink>
              </li>
              <li>
                <ExternalLink
                  href={SITE.links.telegram}
                  className="text-ivory/85 hover:text-ivory hover:underline"
                >
                  {t("footer.telegram")}
                </ExternalLink>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="text-gold-light font-sans text-xs font-semibold tracking-[0.2em] uppercase">
              {t("nav.language")}
            </h2>
            <div className="mt-4">
              <LanguageList />
            </div>
          </div>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="text-ivory/70 mx-auto max-w-7xl px-6 py-6 text-xs">
          {t("footer.copyright", { year, company: SITE.company })}
        </p>
      </div>
    </footer>
  );
}
