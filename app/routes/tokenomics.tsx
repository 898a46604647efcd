import { useTranslation } from "react-i18next";
import { LABELS } from "#content/tokenomics.ts";
import {
  ALLOCATION,
  STAKING_TIERS,
  TOTAL_SUPPLY,
  USE_OF_FUNDS,
} from "#domain/tokenomics/token-terms.ts";
import { formatStakingLock, tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import { circulatingSupply } from "#domain/tokenomics/unlock-schedule.ts";
import { LANGUAGE_TAGS } from "#i18n/config.ts";
import type { Route } from "./+types/tokenomics";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { AllocationChart } from "../components/charts/allocation-chart.tsx";
import { StakingTierTable } from "../components/charts/staking-tier-table.tsx";
import { UnlockChart } from "../components/charts/unlock-chart.tsx";
import { UseOfFundsChart } from "../components/charts/use-of-funds-chart.tsx";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { ScrollRegion } from "../components/ui/scroll-region.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const figures = tokenomicsFigures(language);
  return {
    locale: LANGUAGE_TAGS[language],
    figures,
    allocation: ALLOCATION.map((bucket) => ({
      ...bucket,
      label: LABELS.allocation[bucket.key][language],
    })),
    useOfFunds: USE_OF_FUNDS.map((item) => ({
      ...item,
      label: LABELS.useOfFunds[item.key][language],
    })),
    tiers: STAKING_TIERS.map((tier) => ({
      ...tier,
      label: LABELS.stakingTiers[tier.key][language],
      lockText: formatStakingLock(tier, language),
    })),
    // Computed from each bucket's launch share, cliff and release (domain/tokenomics).
    points: circulatingSupply(60).map(({ month, total, byBucket }) => ({ month, total, byBucket })),
    ...contentPageMeta(language, "tokenomics.title", "meta.tokenomicsDescription"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function Tokenomics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, figures, allocation } = loaderData;
  const facts = [
    [t("tokenomics.totalSupply"), `${figures.totalSupply} $CASL`],
    [t("tokenomics.initialFdv"), figures.initialFdv],
    [t("tokenomics.buyback"), figures.buybackShare],
  ];
  return (
    <PageFrame>
      <PageHeader title={t("tokenomics.title")} description={t("tokenomics.description")} />
      <dl className="mt-10 grid gap-4 sm:grid-cols-3" data-testid="token-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="border-gold/40 bg-paper shadow-card rounded-sm border p-5">
            <dt className="text-muted text-xs font-semibold tracking-[0.12em] uppercase">
              {label}
            </dt>
            <dd className="font-display text-heritage mt-2 text-3xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-16 grid gap-16 lg:grid-cols-2">
        <section aria-labelledby="allocation-heading">
          <h2 id="allocation-heading" className="text-heritage text-3xl font-semibold">
            {t("tokenomics.allocationTitle")}
          </h2>
          <AllocationChart
            id="allocation"
            title={t("tokenomics.allocationCaption", { supply: figures.totalSupply })}
            locale={locale}
            slices={allocation}
            totalSupply={TOTAL_SUPPLY}
            centerLabel={figures.totalSupply}
            centerSubLabel="$CASL"
            tableSummary={t("tokenomics.tableSummary")}
            columns={{
              item: t("tokenomics.item"),
              share: t("tokenomics.share"),
              tokens: t("tokenomics.tokens"),
            }}
            className="mt-6"
          />
        </section>
        <section aria-labelledby="funds-heading">
          <h2 id="funds-heading" className="text-heritage text-3xl font-semibold">
            {t("tokenomics.useOfFundsTitle")}
          </h2>
          <UseOfFundsChart
            id="use-of-funds"
            title={t("tokenomics.useOfFundsCaption")}
            locale={locale}
            items={loaderData.useOfFunds}
            tableSummary={t("tokenomics.tableSummary")}
            columns={{ item: t("tokenomics.item"), share: t("tokenomics.share") }}
            className="mt-6"
          />
        </section>
      </div>
      <section aria-labelledby="unlock-heading" className="mt-16">
        <h2 id="unlock-heading" className="text-heritage text-3xl font-semibold">
          {t("tokenomics.unlockTitle")}
        </h2>
        <UnlockChart
          id="unlock"
          title={t("tokenomics.unlockCaption")}
          locale={locale}
          points={loaderData.points}
          totalSupply={TOTAL_SUPPLY}
          series={allocation.map(({ key, label }) => ({ key, label }))}
          axisLabels={{ month: t("tokenomics.month"), share: t("tokenomics.shareOfSupply") }}
          tableSummary={t("tokenomics.tableSummary")}
          columns={{ month: t("tokenomics.month"), total: t("tokenomics.circulating") }}
          className="mt-6"
        />
        <VestingTable allocation={allocation} locale={locale} />
      </section>
      <section aria-labelledby="staking-heading" className="mt-16">
        <h2 id="staking-heading" className="text-heritage text-3xl font-semibold">
          {t("tokenomics.stakingTitle")}
        </h2>
        <StakingTierTable
          caption={t("tokenomics.stakingCaption")}
          locale={locale}
          columns={{
            tier: t("tokenomics.tier"),
            minimumStake: t("tokenomics.minStake"),
            events: t("tokenomics.events"),
            foodAndBeverage: t("tokenomics.foodAndBeverage"),
            membership: t("tokenomics.membership"),
            lock: t("tokenomics.lock"),
          }}
          tiers={loaderData.tiers}
          footnote={t("tokenomics.stakingFootnote")}
          className="mt-6"
        />
      </section>
    </PageFrame>
  );
}

/** Each bucket's rule in words: share at launch, cliff, release. */
function VestingTable({
  allocation,
  locale,
}: {
  allocation: Route.ComponentProps["loaderData"]["allocation"];
  locale: string;
}) {
  const { t } = useTranslation();
  const percent = (value: number) =>
    new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(
      value / 100,
    );
  const head = "border-b-2 border-heritage/30 px-4 py-3 text-left font-semibold text-heritage";
  const cell = "border-b border-ink/10 px-4 py-3 tabular-nums";
  return (
    <ScrollRegion label={t("tokenomics.vestingTitle")} className="mt-10">
      <table className="w-full min-w-[560px] text-sm">
        <caption className="font-display text-heritage mb-3 text-left text-2xl font-semibold">
          {t("tokenomics.vestingTitle")}
        </caption>
        <thead>
          <tr>
            <th scope="col" className={head}>
              {t("tokenomics.item")}
            </th>
            <th scope="col" className={head}>
              {t("tokenomics.share")}
            </th>
            <th scope="col" className={head}>
              {t("tokenomics.atLaunch")}
            </th>
            <th scope="col" className={head}>
              {t("tokenomics.cliff")}
            </th>
            <th scope="col" className={head}>
              {t("tokenomics.release")}
            </th>
          </tr>
        </thead>
        <tbody>
          {allocation.map((bucket) => (
            <tr key={bucket.key}>
              <th scope="row" className={`${cell} text-left font-medium`}>
                {bucket.label}
              </th>
              <td className={cell}>{percent(bucket.share)}</td>
              <td className={cell}>{percent(bucket.atLaunch)}</td>
              <td className={cell}>
                {bucket.cliffMonths
                  ? t("tokenomics.months", { count: bucket.cliffMonths })
                  : t("tokenomics.none")}
              </td>
              <td className={cell}>
                {bucket.releaseMonths
                  ? `${t("tokenomics.months", { count: bucket.releaseMonths })}, ${t(`tokenomics.${bucket.cadence === "daily" ? "daily" : "monthly"}`)}`
                  : t("tokenomics.none")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
