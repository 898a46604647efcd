import { cn } from "../ui/cn.ts";
import { ScrollRegion } from "../ui/scroll-region.tsx";

export interface StakingTierRow {
  key: string;
  /** Translated tier name. */
  label: string;
  minStakeEur: number;
  /** Discounts in percent. */
  eventsDiscount: number;
  foodAndBeverageDiscount: number;
  membershipDiscount: number;
  /** The lock in words, e.g. formatStakingLock(tier, language): "at least 180 days". */
  lockText: string;
}

export interface StakingTierTableProps {
  caption: string;
  /** BCP 47 tag for number formatting (LANGUAGE_TAGS[language]). */
  locale: string;
  columns: {
    tier: string;
    minimumStake: string;
    events: string;
    foodAndBeverage: string;
    membership: string;
    lock: string;
  };
  tiers: readonly StakingTierRow[];
  /** A line under the table, e.g. "All tiers: early access to event tickets." */
  footnote?: string;
  className?: string;
}

/** Tier accents, lightest to richest. */
const TIER_ACCENTS = ["#8A5A1F", "#78716C", "#A07A3F", "#1F3D2B"] as const;

const HEAD = "text-heritage border-heritage/30 border-b-2 px-4 py-3 text-left font-semibold";
const CELL = "border-ink/10 text-ink border-b px-4 py-3 tabular-nums";

/** The staking tiers as a table: minimum stake, discounts and lock per tier. */
export function StakingTierTable({
  caption,
  locale,
  columns,
  tiers,
  footnote,
  className,
}: StakingTierTableProps) {
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const eur = new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "EUR",
    currencyDisplay: "code",
    maximumFractionDigits: 0,
  });

  return (
    <div className={cn("bg-paper shadow-card rounded-sm p-6", className)}>
      <ScrollRegion label={caption}>
        <table className="w-full border-collapse text-sm">
          <caption className="font-display text-heritage mb-4 text-left text-2xl font-semibold">
            {caption}
          </caption>
          <thead>
            <tr>
              <th scope="col" className={HEAD}>
                {columns.tier}
              </th>
              <th scope="col" className={cn(HEAD, "text-right")}>
                {columns.minimumStake}
              </th>
              <th scope="col" className={cn(HEAD, "text-right")}>
                {columns.events}
              </th>
              <th scope="col" className={cn(HEAD, "text-right")}>
                {columns.foodAndBeverage}
              </th>
              <th scope="col" className={cn(HEAD, "text-right")}>
                {columns.membership}
              </th>
              <th scope="col" className={HEAD}>
                {columns.lock}
              </th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((tier, index) => (
              <tr key={tier.key}>
                <th scope="row" className={cn(CELL, "font-semibold whitespace-nowrap")}>
                  <span className="flex items-center gap-2">
                    <span
                      aria-hidden
                      className="inline-block size-2.5 shrink-0 rounded-full"
                      style={{ backgroundColor: TIER_ACCENTS[index % TIER_ACCENTS.length] }}
                    />
                    {tier.label}
                  </span>
                </th>
                <td className={cn(CELL, "text-right whitespace-nowrap")}>
                  {eur.format(tier.minStakeEur)}
                </td>
                <td className={cn(CELL, "text-right")}>
                  {percent.format(tier.eventsDiscount / 100)}
                </td>
                <td className={cn(CELL, "text-right")}>
                  {percent.format(tier.foodAndBeverageDiscount / 100)}
                </td>
                <td className={cn(CELL, "text-right")}>
                  {percent.format(tier.membershipDiscount / 100)}
                </td>
                <td className={CELL}>{tier.lockText}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {footnote && <p className="text-muted mt-4 text-sm">{footnote}</p>}
    </div>
  );
}
