import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Search } from "lucide-react";
import { MEMBER_STATUSES, type RequestKind, type RequestStatus } from "#domain/requests/options.ts";
import { MONEY_STATES } from "#domain/offers/offer.schema.ts";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { statusLabelKey } from "../status-tones.ts";
import { formatLocalDate } from "./local-date.ts";

/** The filter's values as the form shows them (all optional, strings as in the URL). */
export interface FilterValues {
  kind: RequestKind;
  status?: string;
  q?: string;
  from?: string;
  to?: string;
  propertyId?: number;
  memberStatus?: string;
  money?: string;
  sort: "newest" | "oldest" | "due";
}

/**
 * The inbox filters: a GET form, so the state lives in the URL (bookmarkable, shareable) and
 * works before hydration. A new filter starts again from the first page.
 */
export function InboxFilters({
  filter,
  statuses,
  properties,
  resetHref,
}: {
  filter: FilterValues;
  statuses: readonly RequestStatus[];
  properties: { id: number; name: string }[] | null;
  resetHref: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // Dates in the page's language (a native date input would follow the browser's locale).
  const datePattern = t("staff.filters.datePattern");
  const dateHint = t("staff.filters.dateHint", {
    example: formatLocalDate("2026-12-25", language),
  });
  return (
    <Form
      method="get"
      action="/admin/booking-requests"
      role="search"
      aria-label={t("staff.filters.title")}
      preventScrollReset
      className="border-gold/40 bg-paper/70 grid gap-4 rounded-sm border p-4 sm:p-5"
    >
      {filter.kind !== "booking_request" && <input type="hidden" name="kind" value={filter.kind} />}
      <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]">
        <Field label={t("staff.filters.search")} labelVariant="compact">
          {(control) => (
            <span className="relative block">
              <Search
                aria-hidden
                className="text-muted pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
              />
              <input
                {...control}
                type="search"
                name="q"
                defaultValue={filter.q ?? ""}
                maxLength={100}
                placeholder={t("staff.filters.searchPlaceholder")}
                className={cn(CONTROL_CLASS, "pl-9")}
              />
            </span>
          )}
        </Field>
        <Field label={t("staff.filters.status")} labelVariant="compact">
          {(control) => (
            <select
              {...control}
              name="status"
              defaultValue={filter.status ?? ""}
              className={CONTROL_CLASS}
            >
              <option value="">{t("staff.filters.anyStatus")}</option>
              {statuses.map((status) => (
                <option key={status} value={status}>
                  {t(statusLabelKey(status))}
                </option>
              ))}
            </select>
          )}
        </Field>
        {(["from", "to"] as const).map((name) => (
          <Field
            key={name}
            label={t(`staff.filters.${name}`)}
            labelVariant="compact"
            hint={dateHint}
          >
            {(control) => (
              <input
                {...control}
                type="text"
                name={name}
                inputMode="numeric"
                autoComplete="off"
                defaultValue={formatLocalDate(filter[name], language)}
                placeholder={datePattern}
                className={CONTROL_CLASS}
                data-testid={`filter-${name}`}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="flex flex-wrap items-end gap-4">
        {filter.kind === "booking_request" && (
          <Field
            label={t("staff.filters.memberStatus")}
            labelVariant="compact"
            className="w-full sm:w-64"
          >
            {(control) => (
              <select
                {...control}
                name="memberStatus"
                defaultValue={filter.memberStatus ?? ""}
                className={CONTROL_CLASS}
              >
                <option value="">{t("staff.filters.anyMemberStatus")}</option>
                {MEMBER_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {t(`forms.options.memberStatus.${status}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {filter.kind === "property_booking" && (
          <Field
            label={t("staff.filters.property")}
            labelVariant="compact"
            className="w-full sm:w-80"
          >
            {(control) => (
              <select
                {...control}
                name="propertyId"
                defaultValue={filter.propertyId ? String(filter.propertyId) : ""}
                className={CONTROL_CLASS}
              >
                <option value="">{t("staff.filters.anyProperty")}</option>
                {(properties ?? []).map((property) => (
                  <option key={property.id} value={property.id}>
                    {property.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {filter.kind !== "membership" && (
          <Field label={t("staff.money.filter")} labelVariant="compact" className="w-full sm:w-64">
            {(control) => (
              <select
                {...control}
                name="money"
                defaultValue={filter.money ?? ""}
                className={CONTROL_CLASS}
              >
                <option value="">{t("staff.money.any")}</option>
                {MONEY_STATES.map((state) => (
                  <option key={state} value={state}>
                    {t(`staff.money.states.${state}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label={t("staff.filters.sort")} labelVariant="compact" className="w-full sm:w-48">
          {(control) => (
            <select {...control} name="sort" defaultValue={filter.sort} className={CONTROL_CLASS}>
              <option value="newest">{t("staff.filters.newest")}</option>
              <option value="oldest">{t("staff.filters.oldest")}</option>
              <option value="due">{t("staff.lifecycle.sortDue")}</option>
            </select>
          )}
        </Field>
        <div className="ml-auto flex items-center gap-4">
          <Link
            to={resetHref}
            className="text-heritage text-sm whitespace-nowrap underline-offset-4 hover:underline"
          >
            {t("staff.filters.reset")}
          </Link>
          <Button type="submit">{t("staff.filters.apply")}</Button>
        </div>
      </div>
    </Form>
  );
}
