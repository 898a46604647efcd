import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnswerOf } from "#domain/api/operation.ts";
import { getOwnerStatement } from "#domain/offers/offers.contract.ts";
import { callApi } from "#app/api-client.ts";
import { moneyIn } from "../offers/offer-price.tsx";
import { formatDay } from "../staff/format.ts";
import { buttonVariants } from "../ui/button.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table.tsx";

type Statement = AnswerOf<typeof getOwnerStatement, 200>;

/** The month before this one, as YYYY-MM: the statement an owner most often asks for. */
function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    .toISOString()
    .slice(0, 7);
}

/**
 * The estate's statement for a month, under its requests: confirmed stays that ended in it,
 * with the gross, the network's commission and the net due to the owner, and the same as CSV.
 */
export function StatementSection({ propertyId }: { propertyId: number }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const headingId = useId();
  const [month, setMonth] = useState(lastMonth);
  const [answer, setAnswer] = useState<{ key: string; statement: Statement | null } | null>(null);
  const key = `${propertyId}|${month}|${language}`;
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);

  useEffect(() => {
    if (!valid) return;
    const controller = new AbortController();
    void callApi(
      getOwnerStatement,
      { query: { propertyId, month } },
      { language, signal: controller.signal },
    ).then((result) => {
      if (!controller.signal.aborted) setAnswer({ key, statement: result.ok ? result.data : null });
    });
    return () => controller.abort();
  }, [key, valid, propertyId, month, language]);

  const statement = answer?.key === key ? answer.statement : null;
  const csv = `/api/property-owners/statements?propertyId=${propertyId}&month=${month}&format=csv&lang=${language}`;
  return (
    <section aria-labelledby={headingId} className="mt-10 grid gap-4" data-testid="owner-statement">
      <h3 id={headingId} className="font-display text-heritage text-2xl font-semibold">
        {t("offers.statement.title")}
      </h3>
      <p className="text-sm">
        {t("offers.statement.intro", { percent: statement?.commissionPercent ?? "…" })}
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <Field label={t("offers.statement.monthLabel")}>
          {(control) => (
            <input
              {...control}
              type="month"
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              className={CONTROL_CLASS}
            />
          )}
        </Field>
        {valid && (
          <a className={buttonVariants({ variant: "outline", size: "sm" })} href={csv} download>
            {t("offers.statement.download")}
          </a>
        )}
      </div>
      {statement && statement.lines.length === 0 && (
        <p className="text-muted text-sm">{t("offers.statement.empty")}</p>
      )}
      {statement && statement.lines.length > 0 && (
        <Table layout="stack">
          <TableHeader layout="stack">
            <TableRow layout="stack">
              <TableHead>{t("offers.statement.columns.reference")}</TableHead>
              <TableHead>{t("offers.statement.columns.checkOut")}</TableHead>
              <TableHead>{t("offers.statement.columns.guest")}</TableHead>
              <TableHead>{t("offers.statement.columns.gross")}</TableHead>
              <TableHead>{t("offers.statement.columns.commission")}</TableHead>
              <TableHead>{t("offers.statement.columns.net")}</TableHead>
              <TableHead>{t("offers.statement.columns.paid")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody layout="stack">
            {[
              ...statement.lines.map((line) => ({ ...line, total: false })),
              ...statement.totals.map((total) => ({
                ...total,
                reference: t("offers.statement.total"),
                checkOut: "",
                guestFirstName: "",
                total: true,
              })),
            ].map((line, index) => {
              const money = moneyIn(line.currency, language);
              const cell = (label: string) => ({ label, layout: "stack" as const });
              return (
                <TableRow layout="stack" key={index} data-testid="statement-line">
                  <TableCell
                    {...cell(t("offers.statement.columns.reference"))}
                    pinned
                    className={line.total ? "font-semibold" : "font-mono text-xs"}
                  >
                    {line.reference}
                  </TableCell>
                  <TableCell {...cell(t("offers.statement.columns.checkOut"))}>
                    {line.checkOut ? formatDay(line.checkOut, language) : ""}
                  </TableCell>
                  <TableCell {...cell(t("offers.statement.columns.guest"))}>
                    {line.guestFirstName}
                  </TableCell>
                  <TableCell
                    {...cell(t("offers.statement.columns.gross"))}
                    className="tabular-nums"
                  >
                    {money(line.gross)}
                  </TableCell>
                  <TableCell
                    {...cell(t("offers.statement.columns.commission"))}
                    className="tabular-nums"
                  >
                    {money(line.commission)}
                  </TableCell>
                  <TableCell
                    {...cell(t("offers.statement.columns.net"))}
                    className="font-semibold tabular-nums"
                  >
                    {money(line.net)}
                  </TableCell>
                  <TableCell {...cell(t("offers.statement.columns.paid"))} className="tabular-nums">
                    {money(line.paid)}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
