import { PasskeysPanel } from "../auth/passkeys-panel.tsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useSearchParams } from "react-router";
import { ExternalLink as ExternalIcon, Mail, ShieldCheck } from "lucide-react";
import type { OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { ExternalLink } from "../external-link.tsx";
import { inputClass } from "../forms/fields.tsx";
import { Button, buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { CARD } from "./owner-styles.ts";
import { CalendarTab } from "./calendar-tab.tsx";
import { RatesTab } from "./rates-tab.tsx";
import { IMAGES_HEADING_ID, ImagesTab } from "./images-tab.tsx";
import { OverviewTab } from "./overview-tab.tsx";
import { OwnerHeader, SkipLink } from "./owner-page.tsx";
import { OwnerTabs } from "./owner-tabs.tsx";
import { RequestsTab } from "./requests-tab.tsx";
import { TAB_IDS, type TabId } from "./owner-tab-ids.ts";

/** An owner with several estates opens another one (a plain GET form: `?estate=`). */
function EstateSwitcher({ details }: { details: OwnerPropertyDetails }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const content = searchParams.get("content");
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="estate-switcher">
      <div className="grid gap-1.5">
        <label htmlFor="owner-estate" className="text-ink text-sm font-medium">
          {t("owner.dashboard.switchEstate")}
        </label>
        <select
          id="owner-estate"
          name="estate"
          defaultValue={details.id}
          className={cn(inputClass, "w-auto max-w-full py-2")}
        >
          {details.estates.map((estate) => (
            <option key={estate.id} value={estate.id}>
              {estate.name}
            </option>
          ))}
        </select>
      </div>
      {content && <input type="hidden" name="content" value={content} />}
      <Button type="submit" variant="outline">
        {t("owner.dashboard.openEstate")}
      </Button>
    </Form>
  );
}

/**
 * The owner dashboard: the estate's name and contact email, the public page,
 * and the Images, Overview, Calendar and Requests tabs. The open tab is kept in `?tab=` (without reloading data),
 * so a reload or a change of language comes back to it.
 */
export function OwnerDashboard({ details }: { details: OwnerPropertyDetails }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [tab, setTab] = useState<TabId>(
    () => TAB_IDS.find((id) => id === searchParams.get("tab")) ?? "images",
  );
  const openTab = (next: TabId) => {
    setTab(next);
    setSearchParams(
      (params) => {
        params.set("tab", next);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  const publicPath = `/property/${encodeURIComponent(details.slug)}?lang=${details.language}`;

  return (
    <>
      <SkipLink />
      <OwnerHeader actor={details.actor} estateId={details.id} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
          {details.actor.role === "staff" && (
            <p
              className="border-gold/50 bg-paper text-ink flex items-start gap-3 rounded-sm border px-4 py-3 text-sm"
              data-testid="staff-notice"
            >
              <ShieldCheck aria-hidden className="text-heritage mt-0.5 size-5 shrink-0" />
              {t("owner.dashboard.staffNotice", { email: details.actor.email })}
            </p>
          )}
          <div className="flex flex-wrap items-end justify-between gap-6">
            <div className="max-w-3xl min-w-0">
              <p className="text-muted text-sm tracking-[0.12em] uppercase">
                {t("owner.dashboard.title")}
              </p>
              <h1
                className="text-heritage mt-1 text-4xl font-semibold break-words sm:text-5xl"
                data-testid="property-name"
              >
                {details.name}
              </h1>
              <div aria-hidden className="bg-gold mt-4 h-px w-20" />
              <p className="text-ink mt-4 flex items-center gap-2" data-testid="contact-email">
                <Mail aria-hidden className="text-muted size-4 shrink-0" />
                <span className="sr-only">{t("owner.dashboard.contactEmail")}: </span>
                {details.contactEmail ? (
                  <span className="break-all">{details.contactEmail}</span>
                ) : (
                  <span className="text-muted italic">{t("owner.dashboard.noEmail")}</span>
                )}
              </p>
            </div>
            <div className="flex flex-wrap items-end gap-4">
              {details.estates.length > 1 && <EstateSwitcher details={details} />}
              <ExternalLink
                href={publicPath}
                className={buttonVariants({ variant: "outline" })}
                data-testid="view-public-page"
              >
                <ExternalIcon aria-hidden className="size-4" />
                {t("owner.dashboard.viewPublicPage")}
              </ExternalLink>
            </div>
          </div>
          <OwnerTabs<TabId>
            label={t("owner.dashboard.tabsLabel")}
            active={tab}
            onChange={openTab}
            tabs={[
              {
                id: "images",
                label: t("owner.dashboard.tabImages"),
                panel: <ImagesTab details={details} />,
              },
              {
                id: "overview",
                label: t("owner.dashboard.tabOverview"),
                // A new editing language starts with closed editors.
                panel: (
                  <OverviewTab
                    key={details.language}
                    details={details}
                    onShowImages={() => {
                      openTab("images");
                      // The button that asked is now hidden: focus follows to the images.
                      requestAnimationFrame(() =>
                        document.getElementById(IMAGES_HEADING_ID)?.focus(),
                      );
                    }}
                  />
                ),
              },
              {
                id: "calendar",
                label: t("owner.calendar.tab"),
                panel: <CalendarTab propertyId={details.id} isActive={tab === "calendar"} />,
              },
              {
                id: "rates",
                label: t("owner.rates.tab"),
                panel: <RatesTab propertyId={details.id} isActive={tab === "rates"} />,
              },
              {
                id: "requests",
                label: t("owner.ownerRequests.tab"),
                panel: (
                  <RequestsTab
                    propertyId={details.id}
                    estateName={details.name}
                    isActive={tab === "requests"}
                  />
                ),
              },
            ]}
          />
          {/* An owner may sign in with a passkey; the emailed code stays the way back. */}
          {details.actor.role === "owner" && (
            <div className={cn(CARD, "p-6 sm:p-8")}>
              <PasskeysPanel role="owner" />
            </div>
          )}
        </div>
      </main>
    </>
  );
}
