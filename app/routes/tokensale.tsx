import { useTranslation } from "react-i18next";
import { ExternalLink as ExternalIcon } from "lucide-react";
import { LABELS } from "#content/tokenomics.ts";
import { SALE_PHASES } from "#domain/tokenomics/token-terms.ts";
import { SITE } from "#content/site.ts";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import { LANGUAGE_TAGS } from "#i18n/config.ts";
import type { Route } from "./+types/tokensale";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { ExternalLink } from "../components/external-link.tsx";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { buttonVariants } from "../components/ui/button.tsx";
import { ScrollRegion } from "../components/ui/scroll-region.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const figures = tokenomicsFigures(language);
  const locale = LANGUAGE_TAGS[language];
  const price = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 5,
    maximumFractionDigits: 5,
  });
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  return {
    phases: SALE_PHASES.map((phase) => ({
      key: phase.key,
      phase: phase.phase,
      label: LABELS.salePhases[phase.key][language],
      price: price.format(phase.priceChf),
      share: percent.format(phase.share / 100),
    })),
    initialFdv: figures.initialFdv,
    targetFdv: figures.targetFdv,
    ...contentPageMeta(language, "tokenSale.title", "meta.tokenSaleDescription"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function TokenSale({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const head = "border-b-2 border-heritage/30 px-4 py-3 text-left font-semibold text-heritage";
  const cell = "border-b border-ink/10 px-4 py-3 tabular-nums";
  return (
    <PageFrame>
      <PageHeader title={t("tokenSale.title")} description={t("tokenSale.description")} />
      <ExternalLink
        href={SITE.links.tokenSale}
        className={buttonVariants({ size: "lg", className: "mt-8" })}
      >
        {t("tokenSale.participate")}
        <ExternalIcon aria-hidden className="size-4" />
      </ExternalLink>
      <ScrollRegion label={t("tokenSale.phasesTitle")} className="mt-14 max-w-4xl">
        <table className="w-full min-w-[480px] text-sm" data-testid="sale-phases">
          <caption className="mb-3 text-left">
            <span className="font-display text-heritage block text-3xl font-semibold">
              {t("tokenSale.phasesTitle")}
            </span>
            <span className="text-muted mt-1 block">{t("tokenSale.phasesCaption")}</span>
          </caption>
          <thead>
            <tr>
              <th scope="col" className={head}>
                {t("tokenSale.phase")}
              </th>
              <th scope="col" className={head}>
                {t("tokenSale.price")}
              </th>
              <th scope="col" className={head}>
                {t("tokenSale.share")}
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.phases.map((phase) => (
              <tr key={phase.key}>
                <th scope="row" className={`${cell} text-left font-medium`}>
                  {phase.phase}. {phase.label}
                </th>
                <td className={cell}>{phase.price}</td>
                <td className={cell}>{phase.share}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-muted mt-4 text-sm">
          {t("tokenSale.fdvNote", {
            initialFdv: loaderData.initialFdv,
            targetFdv: loaderData.targetFdv,
          })}
        </p>
      </ScrollRegion>
      <p className="border-gold text-muted mt-10 max-w-3xl border-l-2 pl-4 text-sm">
        {t("tokenSale.notice")}
      </p>
    </PageFrame>
  );
}
