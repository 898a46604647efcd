import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, useRevalidator } from "react-router";
import {
  ArrowLeft,
  CalendarDays,
  ExternalLink as ExternalLinkIcon,
  LayoutDashboard,
} from "lucide-react";
import { NotFoundError } from "#domain/errors.ts";
import { parseEstateId } from "#domain/staff/estates.schema.ts";
import type { Route } from "./+types/estate";
import { requestInfoContext } from "#app/context.ts";
import { EstateHistory } from "#app/components/staff/estate-history.tsx";
import { useEstateLabels } from "#app/components/staff/estate-labels.ts";
import { formatMoment } from "#app/components/staff/format.ts";
import { OwnerEmailForm } from "#app/components/staff/owner-email-form.tsx";
import { CommissionForm, ResponseHoursForm } from "#app/components/staff/estate-setting-form.tsx";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { ExternalLink } from "#app/components/external-link.tsx";
import { ButtonLink, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/components/ui/cn.ts";
import { requireAdmin, staffTitleOf } from "./require-admin.server.ts";
import { ScrollRegion } from "#app/components/ui/scroll-region.tsx";
import { RatesPanel } from "#app/components/pricing/rates-panel.tsx";
import { staffRatesApi } from "#app/components/pricing/rates-api.ts";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user, staff } = requireAdmin(context, request);
  const { language } = context.get(requestInfoContext);
  const propertyId = parseEstateId(params.id);
  if (propertyId === null) throw data(null, { status: 404 });
  let record;
  try {
    record = await staff.getEstate(
      { role: "staff", staffUserId: user.id, email: user.email },
      { propertyId, language },
    );
  } catch (error) {
    if (error instanceof NotFoundError) throw data(null, { status: 404 });
    throw error;
  }
  const { estate, revisions, stale, responseHours, commissionPercent } = record;
  return {
    title: staffTitleOf(context, estate.name),
    estate: {
      id: estate.id,
      slug: estate.slug,
      name: estate.name,
      location: estate.location,
      contactEmail: estate.contactEmail,
    },
    // The page shows values as text: the raw values stay on the server.
    revisions: revisions.map(({ oldValue: _old, newValue: _new, ...entry }) => entry),
    stale,
    responseHours,
    commissionPercent,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

const TH =
  "border-ink/15 text-ink border-b px-3 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap uppercase";
const TD = "border-ink/10 text-ink border-b px-3 py-3 align-top";

/** A titled section of the estate page. */
function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid grid-cols-[minmax(0,1fr)] content-start gap-4">
      <div className="max-w-3xl">
        <h2 id={id} className="text-heritage text-2xl font-semibold sm:text-3xl">
          {title}
        </h2>
        {intro && <p className="text-muted mt-2 text-sm">{intro}</p>}
      </div>
      {children}
    </section>
  );
}

/**
 * One estate for support: its owner contact email (and the form that changes it), the
 * translations that fell behind, and every change owners and staff made, with 'Revert'.
 * From here staff open the owner dashboard of the estate, as the owner would see it.
 */
export default function Estate({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const labels = useEstateLabels();
  const { estate, revisions, stale } = loaderData;
  const refresh = () => void revalidator.revalidate();
  const ratesApi = useMemo(
    () => staffRatesApi(estate.id, i18n.language),
    [estate.id, i18n.language],
  );

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-10 px-4 py-10 sm:px-6 lg:py-12">
      <div className="grid gap-4">
        <Link
          to="/admin/estates"
          className="text-heritage inline-flex items-center gap-2 justify-self-start text-sm font-medium underline-offset-4 hover:underline"
        >
          <ArrowLeft aria-hidden className="size-4" />
          {t("staff.estates.backToList")}
        </Link>
        <StaffPageHeader
          title={estate.name}
          description={`${estate.location} · ${t("staff.estates.estateId", { id: estate.id })}`}
          actions={
            <>
              <ButtonLink
                to={`/admin/estates/${estate.id}/calendar`}
                variant="outline"
                data-testid="open-calendar"
              >
                <CalendarDays aria-hidden className="size-4" />
                {t("staff.estateCalendar.open")}
              </ButtonLink>
              <ButtonLink to={`/admin/dashboard?estate=${estate.id}`} data-testid="open-dashboard">
                <LayoutDashboard aria-hidden className="size-4" />
                {t("staff.estates.openDashboard")}
              </ButtonLink>
              <ExternalLink
                href={`/property/${encodeURIComponent(estate.slug)}`}
                className={buttonVariants({ variant: "outline" })}
              >
                <ExternalLinkIcon aria-hidden className="size-4" />
                {t("staff.estates.viewPublic")}
              </ExternalLink>
            </>
          }
        />
      </div>

      <div className="grid gap-10 lg:grid-cols-2">
        <Section
          id="owner-email"
          title={t("staff.estates.owner.title")}
          intro={t("staff.estates.owner.intro")}
        >
          <div className="border-gold/30 bg-paper rounded-sm border p-5 sm:p-6">
            <OwnerEmailForm
              estateId={estate.id}
              current={estate.contactEmail}
              onChanged={refresh}
            />
          </div>
          <div className="border-gold/30 bg-paper mt-4 rounded-sm border p-5 sm:p-6">
            <ResponseHoursForm
              estateId={estate.id}
              current={loaderData.responseHours}
              onChanged={refresh}
            />
          </div>
          <div className="border-gold/30 bg-paper mt-4 rounded-sm border p-5 sm:p-6">
            <CommissionForm
              estateId={estate.id}
              current={loaderData.commissionPercent}
              onChanged={refresh}
            />
          </div>
        </Section>

        <Section
          id="stale-translations"
          title={t("staff.estates.stale.title")}
          intro={t("staff.estates.stale.intro")}
        >
          {stale.length === 0 ? (
            <p className="border-gold/30 bg-paper text-muted rounded-sm border px-6 py-8">
              {t("staff.estates.stale.none")}
            </p>
          ) : (
            <ScrollRegion
              aria-labelledby="stale-caption"
              className="border-gold/30 bg-paper rounded-sm border"
            >
              <table className="w-full border-collapse text-sm" data-testid="stale-translations">
                <caption id="stale-caption" className="sr-only">
                  {t("staff.estates.stale.caption")}
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className={TH}>
                      {t("staff.estates.stale.columns.field")}
                    </th>
                    <th scope="col" className={TH}>
                      {t("staff.estates.stale.columns.language")}
                    </th>
                    <th scope="col" className={TH}>
                      {t("staff.estates.stale.columns.since")}
                    </th>
                    <th scope="col" className={TH}>
                      {t("staff.estates.stale.columns.editedIn")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {stale.map((flag) => (
                    <tr key={`${flag.field}:${flag.lang}`}>
                      <th scope="row" className={cn(TD, "text-left font-medium")}>
                        {labels.field(flag.field)}
                      </th>
                      <td className={TD}>{labels.language(flag.lang)}</td>
                      <td className={cn(TD, "whitespace-nowrap tabular-nums")}>
                        {formatMoment(flag.since, i18n.language)}
                      </td>
                      <td className={TD}>{labels.language(flag.sourceLang)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </Section>
      </div>

      <Section id="rates" title={t("owner.rates.title")} intro={t("owner.rates.intro")}>
        <div className="border-gold/30 bg-paper rounded-sm border p-5 sm:p-6">
          <RatesPanel api={ratesApi} />
        </div>
      </Section>

      <Section
        id="history"
        title={t("staff.estates.history.title")}
        intro={t("staff.estates.history.intro")}
      >
        <EstateHistory
          estateId={estate.id}
          estateName={estate.name}
          entries={revisions}
          onChanged={refresh}
        />
      </Section>
    </div>
  );
}
