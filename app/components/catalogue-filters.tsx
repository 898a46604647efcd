import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Search } from "lucide-react";
import { AMENITY_KEYS, REGIONS } from "../../domain/catalogue/catalogue-keys.ts";
import type { CatalogueFilter } from "../../domain/catalogue/catalogue-filter.schema.ts";
import { Button } from "./ui/button.tsx";

const field =
  "mt-1.5 block w-full rounded-sm border border-muted/40 bg-paper px-3 py-2 text-sm text-ink";
const label = "text-xs font-semibold tracking-[0.12em] text-muted uppercase";

/**
 * The catalogue's search and filters: a GET form, so the state lives in the URL, works before
 * hydration, and a page of results can be shared or bookmarked.
 */
export function CatalogueFilters({ filter }: { filter: CatalogueFilter }) {
  const { t } = useTranslation();
  return (
    <Form
      method="get"
      action="/castles"
      role="search"
      aria-label={t("filters.title")}
      className="border-gold/40 bg-paper/60 mt-10 grid gap-5 rounded-sm border p-5 sm:p-6"
      preventScrollReset
    >
      <div className="grid gap-4 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <label className="block">
          <span className={label}>{t("filters.search")}</span>
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
              placeholder={t("filters.searchPlaceholder")}
              className={`${field} pl-9`}
            />
          </span>
        </label>
        <label className="block">
          <span className={label}>{t("filters.region")}</span>
          <select name="region" defaultValue={filter.region ?? ""} className={field}>
            <option value="">{t("filters.anyRegion")}</option>
            {REGIONS.map((region) => (
              <option key={region} value={region}>
                {t(`regions.${region}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className={label}>{t("filters.guests")}</span>
          <input
            type="number"
            name="guests"
            min={1}
            max={200}
            defaultValue={filter.guests ?? ""}
            className={field}
          />
        </label>
        <label className="block">
          <span className={label}>{t("filters.bedrooms")}</span>
          <input
            type="number"
            name="bedrooms"
            min={1}
            max={80}
            defaultValue={filter.bedrooms ?? ""}
            className={field}
          />
        </label>
      </div>
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
          <Link to="/castles" className="text-heritage text-sm underline-offset-4 hover:underline">
            {t("filters.clear")}
          </Link>
          <Button type="submit">{t("filters.apply")}</Button>
        </div>
      </div>
    </Form>
  );
}
