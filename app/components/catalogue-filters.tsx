import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { Search } from "lucide-react";
import {
  AMENITY_KEYS,
  CATALOGUE_MAX_STAY_NIGHTS,
  REGIONS,
  STAY_DATE_FIELDS,
} from "#domain/catalogue/catalogue-keys.ts";
import type { CatalogueFilter, ReadFilter } from "#domain/catalogue/catalogue-filter.schema.ts";
import { addDays } from "#domain/calendar/nights.ts";
import { Button } from "./ui/button.tsx";
import { cn } from "./ui/cn.ts";
import { CONTROL_CLASS, Field } from "./ui/field.tsx";

type DateField = (typeof STAY_DATE_FIELDS)[number];

const label = "text-muted text-xs font-semibold tracking-[0.08em] uppercase";
const quietLink = "text-heritage text-sm underline-offset-4 hover:underline";

/** The current catalogue address without the stay's dates (and its page cursor). */
function withoutDates(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of [...STAY_DATE_FIELDS, "after", "before"]) params.delete(name);
  const query = params.toString();
  return query ? `/castles?${query}` : "/castles";
}

/**
 * The catalogue's search and filters: a GET form, so the state lives in the URL, works before
 * hydration, and a page of results can be shared or bookmarked. The stay's dates are native
 * date fields (they send 'YYYY-MM-DD', the URL's form); a date the server refused keeps its
 * error under its field.
 */
export function CatalogueFilters({
  filter,
  dates,
  dateErrors,
  earliestDate,
  lastDate,
}: {
  filter: CatalogueFilter;
  dates: ReadFilter["dates"];
  dateErrors: ReadFilter["dateErrors"];
  /** The first check-in the server accepts (today in the earliest time zone). */
  earliestDate: string;
  /** The last date of the booking window: neither date may be later. */
  lastDate: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  // The check-out picker starts the night after the chosen check-in.
  const [checkIn, setCheckIn] = useState(dates.checkIn ?? "");
  const firstCheckOut = addDays(checkIn && checkIn >= earliestDate ? checkIn : earliestDate, 1);
  const hasDates = Boolean(dates.checkIn || dates.checkOut);
  // A date past the window is refused here with the server's message, under its field, rather
  // than with the browser's own bubble; the server refuses it as well (checkStayDates).
  const [windowErrors, setWindowErrors] = useState<Partial<Record<DateField, string>>>({});
  const errorOf = (field: DateField) => {
    const key = windowErrors[field] ?? dateErrors[field];
    return key ? t(key, { max: CATALOGUE_MAX_STAY_NIGHTS }) : undefined;
  };
  const windowRule = (field: DateField) => ({
    max: lastDate,
    onInvalid: (event: React.InvalidEvent<HTMLInputElement>) => {
      if (!event.currentTarget.validity.rangeOverflow) return;
      event.preventDefault();
      setWindowErrors((errors) => ({ ...errors, [field]: "validation.dateBeyondWindow" }));
      // Focus goes to the first refused field, as the browser's own check would.
      const checkIn = event.currentTarget.form?.elements.namedItem("checkIn");
      if (field === "checkIn" || !(checkIn instanceof HTMLInputElement) || checkIn.validity.valid)
        event.currentTarget.focus();
    },
    onInput: () => setWindowErrors(({ [field]: _cleared, ...others }) => others),
  });
  return (
    <Form
      method="get"
      action="/castles"
      role="search"
      aria-label={t("filters.title")}
      className="border-gold/40 bg-paper/60 mt-10 grid gap-5 rounded-sm border p-5 sm:p-6"
      preventScrollReset
    >
      <div className="grid items-start gap-4 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <Field label={t("filters.search")} labelVariant="compact">
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
                placeholder={t("filters.searchPlaceholder")}
                className={cn(CONTROL_CLASS, "pl-9")}
              />
            </span>
          )}
        </Field>
        <Field label={t("filters.region")} labelVariant="compact">
          {(control) => (
            <select
              {...control}
              name="region"
              defaultValue={filter.region ?? ""}
              className={CONTROL_CLASS}
            >
              <option value="">{t("filters.anyRegion")}</option>
              {REGIONS.map((region) => (
                <option key={region} value={region}>
                  {t(`regions.${region}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t("filters.guests")} labelVariant="compact">
          {(control) => (
            <input
              {...control}
              type="number"
              name="guests"
              min={1}
              max={200}
              defaultValue={filter.guests ?? ""}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        <Field label={t("filters.bedrooms")} labelVariant="compact">
          {(control) => (
            <input
              {...control}
              type="number"
              name="bedrooms"
              min={1}
              max={80}
              defaultValue={filter.bedrooms ?? ""}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
      </div>
      <fieldset data-testid="stay-dates">
        <legend className={label}>{t("catalogueDates.legend")}</legend>
        <div className="mt-2 grid items-start gap-4 sm:grid-cols-2 md:grid-cols-[1fr_1fr_2fr]">
          <Field label={t("catalogueDates.checkIn")} error={errorOf("checkIn")}>
            {(control) => (
              <input
                {...control}
                type="date"
                name="checkIn"
                min={earliestDate}
                {...windowRule("checkIn")}
                defaultValue={dates.checkIn ?? ""}
                onChange={(event) => setCheckIn(event.currentTarget.value)}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
          <Field label={t("catalogueDates.checkOut")} error={errorOf("checkOut")}>
            {(control) => (
              <input
                {...control}
                type="date"
                name="checkOut"
                min={firstCheckOut}
                {...windowRule("checkOut")}
                defaultValue={dates.checkOut ?? ""}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
          <div className="grid content-start gap-1.5 md:pt-7">
            <p className="text-muted text-sm">{t("catalogueDates.hint")}</p>
            {hasDates && (
              <Link
                to={withoutDates(location.search)}
                className={cn(quietLink, "justify-self-start")}
                preventScrollReset
              >
                {t("catalogueDates.clear")}
              </Link>
            )}
          </div>
        </div>
      </fieldset>
      <fieldset>
        <legend className={label}>{t("filters.amenities")}</legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {AMENITY_KEYS.map((amenity) => (
            <label key={amenity} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="amenities"
                value={amenity}
                defaultChecked={filter.amenities?.includes(amenity)}
                className="accent-heritage size-4"
              />
              {t(`amenities.${amenity}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <label className="inline-flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="members"
            value="1"
            defaultChecked={filter.members}
            className="accent-heritage size-4"
          />
          {t("filters.membersOnly")}
        </label>
        <div className="flex items-center gap-4">
          <Link to="/castles" className={quietLink}>
            {t("filters.clear")}
          </Link>
          <Button type="submit">{t("filters.apply")}</Button>
        </div>
      </div>
    </Form>
  );
}
