import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Search } from "lucide-react";
import {
  MEMBER_STATUSES,
  type RequestKind,
  type RequestStatus,
} from "../../../domain/requests/options.ts";
import { Button } from "../ui/button.tsx";
import { statusLabelKey } from "../status-tones.ts";

/** The filter's values as the form shows them (all optional, strings as in the URL). */
export interface FilterValues {
  kind: RequestKind;
  status?: string;
  q?: string;
  from?: string;
  to?: string;
  propertyId?: number;
  memberStatus?: string;
  sort: "newest" | "oldest";
}

const field =
  "mt-1.5 block w-full rounded-sm border border-ink/25 bg-paper px-3 py-2 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-gold";
const label = "text-xs font-semibold tracking-[0.08em] text-muted uppercase";

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
  const { t } = useTranslation();
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
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]">
        <label className="block">
          <span className={label}>{t("staff.filters.search")}</span>
          <span className="relative block">
            <Search
              aria-hidden
              className="text-muted pointer-events-none absolute top-1/2 left-3 mt-0.75 size-4 -translate-y-1/2"
            />
            <input
              type="search"
              name="q"
              defaultValue={filter.q ?? ""}
              maxLength={100}
              placeholder={t("staff.filters.searchPlaceholder")}
              className={`${field} pl-9`}
            />
          </span>
        </label>
        <label className="block">
          <span className={label}>{t("staff.filters.status")}</span>
          <select name="status" defaultValue={filter.status ?? ""} className={field}>
            <option value="">{t("staff.filters.anyStatus")}</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {t(statusLabelKey(status))}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className={label}>{t("staff.filters.from")}</span>
          <input type="date" name="from" defaultValue={filter.from ?? ""} className={field} />
        </label>
        <label className="block">
          <span className={label}>{t("staff.filters.to")}</span>
          <input type="date" name="to" defaultValue={filter.to ?? ""} className={field} />
        </label>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        {filter.kind === "booking_request" && (
          <label className="block w-full sm:w-64">
            <span className={label}>{t("staff.filters.memberStatus")}</span>
            <select name="memberStatus" defaultValue={filter.memberStatus ?? ""} className={field}>
              <option value="">{t("staff.filters.anyMemberStatus")}</option>
              {MEMBER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`forms.options.memberStatus.${status}`)}
                </option>
              ))}
            </select>
          </label>
        )}
        {filter.kind === "property_booking" && (
          <label className="block w-full sm:w-80">
            <span className={label}>{t("staff.filters.property")}</span>
            <select
              name="propertyId"
              defaultValue={filter.propertyId ? String(filter.propertyId) : ""}
              className={field}
            >
              <option value="">{t("staff.filters.anyProperty")}</option>
              {(properties ?? []).map((property) => (
                <option key={property.id} value={property.id}>
                  {property.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="block w-full sm:w-48">
          <span className={label}>{t("staff.filters.sort")}</span>
          <select name="sort" defaultValue={filter.sort} className={field}>
            <option value="newest">{t("staff.filters.newest")}</option>
            <option value="oldest">{t("staff.filters.oldest")}</option>
          </select>
        </label>
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
