import { useId, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { SITE } from "#content/site.ts";
import { LanguageMenu } from "../language-links.tsx";

/**
 * A staff page without the staff header (sign-in, setup, 'Access Denied'): the brand, then one
 * centred card. The page is its own `main` landmark.
 */
export function StaffPlainPage({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <header className="bg-heritage text-ivory">
        <div className="mx-auto flex max-w-[100rem] flex-wrap items-center gap-3 px-4 py-4 sm:px-6">
          <span className="font-display text-2xl font-semibold">{SITE.brand}</span>
          <span className="text-ivory/85 text-sm tracking-[0.12em] uppercase">
            {t("staff.shell.dashboard")}
          </span>
          {/* Sign-in and setup can be read in another language before anyone is signed in. */}
          <div className="ml-auto">
            <LanguageMenu />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 justify-center px-4 py-12 sm:py-20">
        <div className="w-full max-w-lg">{children}</div>
      </main>
    </>
  );
}

/** The card of a plain staff page, titled by the page's one h1. */
export function StaffCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children?: React.ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="border-gold/30 bg-paper shadow-card rounded-sm border p-6 sm:p-10"
    >
      <h1 id={id} className="text-heritage text-4xl font-semibold">
        {title}
      </h1>
      <div aria-hidden className="bg-gold mt-4 h-px w-16" />
      {intro && <p className="text-muted mt-4">{intro}</p>}
      {children}
    </section>
  );
}

/** The title block of a page inside the staff area. */
export function StaffPageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="max-w-3xl">
        <h1 className="text-heritage text-4xl font-semibold sm:text-5xl">{title}</h1>
        <div aria-hidden className="bg-gold mt-4 h-px w-20" />
        {description && <p className="text-muted mt-4">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-3">{actions}</div>}
    </div>
  );
}

const noSubscription = () => () => {};

/**
 * False on the server and in the first render, true once React runs in the browser. Forms that
 * only work through the JSON API stay disabled until then, so an early Enter cannot send them
 * as a plain form submission.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
