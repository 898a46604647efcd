import { type SQL, sql } from "drizzle-orm";
import type { MoneyState, RequestMoney } from "./offer.schema.ts";

/**
 * Where a request's money stands, as staff scan for it in the inbox: an offer waiting for the
 * guest, a deposit or balance to collect, a balance past its day, everything paid, or a refund
 * owed after a cancellation. Written once, in SQL over a live offer (`offers`) and its request
 * (`guest_requests`): the inbox's rows, its filter and the overview's count all read this one
 * expression, so a row never shows a state its filter would not find.
 */

/*
 * Raw SQL with every column named by its table: inside a select from one table Drizzle leaves
 * interpolated columns unqualified, and an unqualified "id" or "status" in these subqueries
 * would name the offer's own column instead of the request's.
 */
const LIVE = `"offers"."status" in ('sent', 'accepted')`;

/** Received for the offer (deposits and balances), and refunded, summed from the ledger. */
const PAID_IN = `(select coalesce(sum("payments"."amount"), 0) from "payments" where "payments"."offer_id" = "offers"."id" and "payments"."kind" <> 'refund')`;
const REFUNDED_OUT = `(select coalesce(sum("payments"."amount"), 0) from "payments" where "payments"."offer_id" = "offers"."id" and "payments"."kind" = 'refund')`;

/** The money state of the live offer in `offers` and its request in `guest_requests`, on $today. */
const STATE = `case
    when "offers"."status" = 'sent' then 'offer_sent'
    when "guest_requests"."status" = 'Cancelled' then
      case when coalesce("offers"."refund_due", 0) > ${REFUNDED_OUT} then 'refund_due' end
    when "guest_requests"."status" = 'Awaiting deposit' then 'deposit_due'
    when ${PAID_IN} >= "offers"."total" then 'paid'
    when "offers"."balance_due_on" < $today then 'balance_overdue'
    else 'balance_due'
  end`;

/** The day STATE points at, as YYYY-MM-DD. */
const DUE_ON = `case
    when "offers"."status" = 'sent' then to_char("offers"."expires_at" at time zone 'UTC', 'YYYY-MM-DD')
    when "guest_requests"."status" = 'Awaiting deposit' then to_char("offers"."deposit_due_at" at time zone 'UTC', 'YYYY-MM-DD')
    else to_char("offers"."balance_due_on", 'YYYY-MM-DD')
  end`;

/** `text` with `$today` bound to the day (a parameter, never spliced into the text). */
function withToday(text: string, today: string): SQL {
  const parts = text.split("$today");
  const chunks: SQL[] = [sql.raw(parts[0]!)];
  for (const part of parts.slice(1)) chunks.push(sql`${today}::date`, sql.raw(part));
  return sql.join(chunks);
}

/**
 * A column for a query over `guest_requests`: the request's money as JSON, null without a live
 * offer or with nothing left to do about it (a cancellation that owes no refund).
 */
export function requestMoneyColumn(today: string): SQL<RequestMoney | null> {
  return withToday(
    `(select case when state is null then null else json_build_object(
      'state', state,
      'currency', "offers"."currency",
      'total', "offers"."total",
      'outstanding', greatest(0, "offers"."total" - ${PAID_IN}),
      'dueOn', ${DUE_ON}
    ) end from "offers", lateral (select ${STATE} as state) as money
    where "offers"."request_id" = "guest_requests"."id" and ${LIVE})`,
    today,
  ) as SQL<RequestMoney | null>;
}

/**
 * The ids of requests whose money is in `state` on `today`, for `guest_requests.id in (…)`. The
 * query starts from the live offers (a partial index), not from every request.
 */
export function requestsInMoneyState(state: MoneyState, today: string): SQL {
  return sql`${withToday(
    `(select "offers"."request_id" from "offers" inner join "guest_requests" on "guest_requests"."id" = "offers"."request_id" where ${LIVE} and (${STATE}) = `,
    today,
  )}${state})`;
}
