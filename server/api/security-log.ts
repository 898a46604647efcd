import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { type Response, Router } from "express";
import type { Deps } from "#domain/deps.ts";
import {
  listSecurityEvents,
  SECURITY_CSV_COLUMNS,
  securityCsvRowOf,
  streamSecurityEvents,
} from "#domain/security/read-security-log.ts";
import * as contract from "#domain/security/security-log.contract.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import { requireAdminApi } from "../middleware/session.ts";
import { securityActorOf, securityClientOf } from "../middleware/security-log.ts";
import { defineRoute, refuse, STREAMED } from "./define-route.ts";
import { consumeRateLimits, type RateLimitStore } from "#domain/rate-limit/rate-limiter.ts";
import { CSV_OPTIONS } from "#domain/csv/safe-csv.ts";

/** The items of a generator whose first result was already read. */
async function* startingWith<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>) {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

/** The filters as the export entry keeps them: only those set. */
const filtersOf = (filter: contract.SecurityEventFilter) =>
  Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));

/** Reading the security log (domain/security/security-log.contract.ts): company admins only. */
export function securityLogRoutes(
  deps: Deps,
  options: { adminEmailDomain: string; store: RateLimitStore },
): Router {
  const router = Router();
  const requireAdmin = requireAdminApi(options.adminEmailDomain);

  defineRoute(router, contract.listSecurityEvents, {
    before: [requireAdmin],
    async handle({ query }) {
      return { status: 200, body: await listSecurityEvents(deps, query) };
    },
  });

  defineRoute(router, contract.exportSecurityEventsCsv, {
    before: [requireAdmin],
    async handle({ query, req, res }) {
      const session = res.locals.session;
      const retryAfterSeconds = await consumeRateLimits(options.store, [
        {
          name: "security-export",
          max: contract.SECURITY_EXPORT_LIMIT.max,
          windowMs: contract.SECURITY_EXPORT_LIMIT.windowMs,
          key: session?.role === "staff" ? session.user.id : "unknown",
        },
      ]);
      if (retryAfterSeconds > 0) {
        res.set("Retry-After", String(retryAfterSeconds));
        return refuse(429, "too_many_exports", "staff.securityLog.tooManyExports", {
          minutes: Math.ceil(retryAfterSeconds / 60),
        });
      }
      // The first batch is read before the first byte: a failed query is still an answer.
      const events = streamSecurityEvents(deps, query);
      const first = await events.next();
      await recordSecurityEvent(deps.db, {
        type: "export.csv",
        actor: securityActorOf(res),
        client: securityClientOf(req),
        data: { export: "security-events", filters: filtersOf(query) },
      });
      sendCsvHead(res, `security-events-${new Date().toISOString().slice(0, 10)}.csv`);
      await pipeline(
        Readable.from(startingWith(first, events)).map(securityCsvRowOf),
        stringify({
          header: true,
          columns: [...SECURITY_CSV_COLUMNS],
          ...CSV_OPTIONS,
        }),
        res,
      );
      return STREAMED;
    },
  });

  return router;
}

/** The status and headers of a CSV download, and the byte-order mark spreadsheets need. */
function sendCsvHead(res: Response, filename: string) {
  res
    .status(200)
    .set("Content-Type", "text/csv; charset=utf-8")
    .set("Content-Disposition", `attachment; filename="${filename}"`);
  res.write("\uFEFF");
}
