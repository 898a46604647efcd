import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ownerRatesApi } from "../pricing/rates-api.ts";
import { RatesPanel } from "../pricing/rates-panel.tsx";

/**
 * The owner dashboard's Rates tab: the estate's rates as its owner edits them (through the
 * owner's calls; a staff admin on the dashboard uses them the same way). Read when the tab is
 * first opened; staff put an earlier revision back from the staff estate page.
 */
export function RatesTab({ propertyId, isActive }: { propertyId: number; isActive: boolean }) {
  const { t, i18n } = useTranslation();
  const api = useMemo(() => ownerRatesApi(propertyId, i18n.language), [propertyId, i18n.language]);
  return (
    <section aria-labelledby="owner-rates-title" className="grid gap-4">
      <div className="max-w-3xl">
        <h2 id="owner-rates-title" className="text-heritage text-2xl font-semibold">
          {t("owner.rates.title")}
        </h2>
        <p className="text-muted mt-2 text-sm">{t("owner.rates.intro")}</p>
      </div>
      <RatesPanel api={api} isActive={isActive} />
    </section>
  );
}
