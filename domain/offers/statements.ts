import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { guestRequests, offers, payments, properties } from "#db/schema/index.ts";
import { addMonths } from "../requests/dates.ts";
import type { Deps } from "../deps.ts";
import { stringify } from "csv-stringify";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { CSV_OPTIONS, csvCell } from "../csv/safe-csv.ts";
import { isCurrency, percentToBasisPoints, share, toMajorString } from "../pricing/money.ts";

/**
 * An owner's monthly statement: the stays of their estate that ended in the month (check-out in
 * it) and were confirmed, each with its gross (the offer's total), the network's commission
 * (OWNER_COMMISSION_PERCENT, rounded once: decision 0032) and the net due to the owner; with
 * what the guest paid so far. Totals per currency, as an estate may have changed its currency.
 */

export interface StatementLine {
  reference: string;
  checkIn: string;
  checkOut: string;
  guestFirstName: string;
  currency: string;
  gross: number;
  commission: number;
  net: number;
  paid: number;
}

export interface Statement {
  propertyId: number;
  month: string;
  commissionPercent: number;
  lines: StatementLine[];
  totals: { currency: string; gross: number; commission: number; net: number; paid: number }[];
}

export async function readStatement(
  deps: Pick<Deps, "db">,
  input: { propertyId: number; month: string; defaultCommissionPercent: number },
): Promise<Statement> {
  const [estate] = await deps.db
    .select({ commissionPercent: properties.commissionPercent })
    .from(properties)
    .where(eq(properties.id, input.propertyId));
  // The estate's own share when staff set one, else the site's.
  const commissionPercent = estate?.commissionPercent ?? input.defaultCommissionPercent;
  const start = `${input.month}-01`;
  const end = `${addMonths(start, 1).slice(0, 7)}-01`;
  const rows = await deps.db
    .select({
      offerId: offers.id,
      reference: guestRequests.reference,
      checkIn: offers.checkIn,
      checkOut: offers.checkOut,
      guestFirstName: guestRequests.firstName,
      currency: offers.currency,
      total: offers.total,
    })
    .from(offers)
    .innerJoin(guestRequests, eq(guestRequests.id, offers.requestId))
    .where(
      and(
        eq(offers.propertyId, input.propertyId),
        eq(offers.status, "accepted"),
        eq(guestRequests.status, "Confirmed"),
        gte(offers.checkOut, start),
        lt(offers.checkOut, end),
      ),
    )
    .orderBy(offers.checkOut, guestRequests.reference);
  const paidRows =
    rows.length === 0
      ? []
      : await deps.db
          .select({
            offerId: payments.offerId,
            paid: sql<number>`sum(case when ${payments.kind} = 'refund' then -${payments.amount} else ${payments.amount} end)::bigint`.mapWith(
              Number,
            ),
          })
          .from(payments)
          .where(
            inArray(
              payments.offerId,
              rows.map((row) => row.offerId),
            ),
          )
          .groupBy(payments.offerId);
  const paidOf = new Map(paidRows.map((row) => [row.offerId, row.paid]));
  const points = percentToBasisPoints(commissionPercent);
  const lines = rows.map((row): StatementLine => {
    const commission = share(row.total, points);
    return {
      reference: row.reference,
      checkIn: row.checkIn,
      checkOut: row.checkOut,
      guestFirstName: row.guestFirstName,
      currency: row.currency,
      gross: row.total,
      commission,
      net: row.total - commission,
      paid: paidOf.get(row.offerId) ?? 0,
    };
  });
  const totals = new Map<string, Statement["totals"][number]>();
  for (const line of lines) {
    const total = totals.get(line.currency) ?? {
      currency: line.currency,
      gross: 0,
      commission: 0,
      net: 0,
      paid: 0,
    };
    total.gross += line.gross;
    total.commission += line.commission;
    total.net += line.net;
    total.paid += line.paid;
    totals.set(line.currency, total);
  }
  return {
    propertyId: input.propertyId,
    month: input.month,
    commissionPercent,
    lines,
    totals: [...totals.values()],
  };
}

/**
 * The statement as CSV for the owner's accountant: a header in `language`, one row per stay,
 * amounts in the major unit with a point ("1234.50"), every cell made safe for a spreadsheet.
 */
export async function statementCsv(statement: Statement, language: Language): Promise<string> {
  const t = (key: string) => translate(language, `offers.statement.columns.${key}`);
  const major = (amount: number, currency: string) =>
    isCurrency(currency) ? toMajorString(amount, currency) : String(amount / 100);
  const rows = [
    [
      "reference",
      "checkIn",
      "checkOut",
      "guest",
      "currency",
      "gross",
      "commission",
      "net",
      "paid",
    ].map(t),
    ...statement.lines.map((line) => [
      line.reference,
      line.checkIn,
      line.checkOut,
      line.guestFirstName,
      line.currency,
      major(line.gross, line.currency),
      major(line.commission, line.currency),
      major(line.net, line.currency),
      major(line.paid, line.currency),
    ]),
  ];
  return new Promise<string>((resolve, reject) =>
    stringify(
      rows.map((row) => row.map(csvCell)),
      CSV_OPTIONS,
      (error, output) => (error ? reject(error) : resolve(output)),
    ),
  );
}
