import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { Router } from "express";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import {
  discardUndeliveredMail,
  listUndeliveredMail,
  retryUndeliveredMail,
} from "#domain/mail/mail.contract.ts";
import {
  discardMail,
  listUndeliveredMail as undeliveredMail,
  retryMail,
} from "#domain/mail/outbox-health.ts";
import { type RequestKind, REQUEST_KINDS, STATUS_KEYS } from "#domain/requests/options.ts";
import { STAFF_COLLECTIONS } from "#domain/staff/collections.ts";
import { isStayKind } from "#domain/calendar/calendar.schema.ts";
import { collisionAnswer, importedBusyAnswer } from "#domain/calendar/collisions.ts";
import { setRequestStay } from "#domain/requests/set-stay.ts";
import { addRequestNote, changeRequestStatus } from "#domain/requests/change-status.ts";
import { STAFF_MESSAGE_OPERATIONS } from "#domain/conversation/messages.contract.ts";
import { readThreadAsStaff, sendStaffMessage } from "#domain/conversation/messages.ts";
import { CSV_COLUMNS, streamInboxCsv } from "#domain/staff/inbox-csv.ts";
import { CSV_OPTIONS, csvCell } from "#domain/csv/safe-csv.ts";
import {
  COLLECTION_OPERATIONS,
  DUE_OPERATIONS,
  getInboxOverview,
  STAY_OPERATIONS,
} from "#domain/staff/inbox.contract.ts";
import { extendRequestDue } from "#domain/requests/extend-due.ts";
import {
  countInboxByStatus,
  getInboxOverview as inboxOverview,
  getRequestDetail,
  listInbox,
  type RequestDetail,
} from "#domain/staff/inbox.ts";
import { INBOX_PAGE_SIZE, inboxFilterToSearch } from "#domain/staff/inbox.schema.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import type { Language } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { securityActorOf, securityClientOf } from "../middleware/security-log.ts";
import { requireAdminApi, signedInAdmin } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, refuse, STREAMED } from "./define-route.ts";

/** The items of a generator whose first result was already read. */
async function* startingWith<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>) {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

/**
 * The staff inbox (domain/staff/inbox.contract.ts): the overview, and for each kind of request
 * its list, CSV export, details, status change, due time, stay and notes; with the staff side
 * of the conversation with the guest and the mail the outbox could not deliver, which the
 * inbox pages show. All JSON but the CSV.
 */
/**
 * The 409 of a change made on a stale version: someone changed the request first. The answer
 * names its status now and carries it whole, so the page can show it and let staff try again.
 */
function versionConflict(language: Language, current: RequestDetail) {
  const status = translate(language, `staff.statuses.${STATUS_KEYS[current.status]}`);
  return {
    status: 409 as const,
    body: {
      message: translate(language, "staff.errors.conflict", { status }),
      code: "version_conflict" as const,
      current,
    },
  };
}

export function inboxRoutes(deps: Deps, staff: StaffServices, publicUrl: string): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);

  defineRoute(router, getInboxOverview, {
    before: [requireAdmin],
    async handle() {
      const [overview, ...counts] = await Promise.all([
        inboxOverview(deps),
        ...REQUEST_KINDS.map((kind) => countInboxByStatus(deps, kind)),
      ]);
      const byKind = Object.fromEntries(REQUEST_KINDS.map((kind, i) => [kind, counts[i]!]));
      return {
        status: 200,
        body: { ...overview, counts: byKind as Record<RequestKind, (typeof counts)[number]> },
      };
    },
  });

  defineRoute(router, listUndeliveredMail, {
    before: [requireAdmin],
    async handle() {
      return { status: 200, body: await undeliveredMail(deps, {}) };
    },
  });

  defineRoute(router, retryUndeliveredMail, {
    before: [sameOrigin, requireAdmin],
    async handle({ params }) {
      const result = await retryMail(deps, params.id);
      if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
      if (result.outcome === "not_failed")
        return refuse(409, "mail_not_failed", "staff.mail.notFailed");
      staff.onMailQueued();
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, discardUndeliveredMail, {
    before: [sameOrigin, requireAdmin],
    async handle({ params, res }) {
      const result = await discardMail(deps, params.id, { by: signedInAdmin(res).email });
      if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
      if (result.outcome === "not_failed")
        return refuse(409, "mail_not_failed", "staff.mail.notFailed");
      return { status: 204 };
    },
  });

  for (const kind of REQUEST_KINDS) {
    const path = STAFF_COLLECTIONS[kind];
    const operations = COLLECTION_OPERATIONS[kind];

    defineRoute(router, operations.list, {
      before: [requireAdmin],
      async handle({ query, res }) {
        const filter = { ...query, kind };
        const page = await listInbox(deps, filter);
        res.set("X-Total-Count", String(page.total));
        if (page.nextCursor) {
          // The path names the kind, so the link leaves `kind` out (its default is omitted).
          const next = inboxFilterToSearch({ ...filter, kind: undefined, after: page.nextCursor });
          res.set("Link", `<${publicUrl}/api${path}?${next}>; rel="next"`);
        }
        return { status: 200, body: page.items };
      },
    });

    defineRoute(router, operations.exportCsv, {
      before: [requireAdmin],
      // The filter, status included, is parsed before this runs: a 400 is still possible then,
      // not once the first byte is written.
      async handle({ query, req, res }) {
        const filter = { ...query, kind, after: undefined, limit: INBOX_PAGE_SIZE };
        // The first batch is read before the first byte too: a failed query is still an answer.
        const language = res.locals.language;
        const t = (key: string) => translate(language, key);
        const csvRows = streamInboxCsv(deps, filter, language, t);
        const first = await csvRows.next();
        await recordSecurityEvent(deps.db, {
          type: "export.csv",
          actor: securityActorOf(res),
          client: securityClientOf(req),
          data: {
            export: "inbox",
            kind,
            // The search may be a guest's name or address: the log says only that there was one.
            filters: Object.fromEntries(
              Object.entries(query)
                .filter(([, value]) => value !== undefined)
                .map(([name, value]) => [name, name === "q" ? "[search]" : value]),
            ),
          },
        });
        const stamp = new Date().toISOString().slice(0, 10);
        res
          .status(200)
          .set("Content-Type", "text/csv; charset=utf-8")
          .set("Content-Disposition", `attachment; filename="${kind}-${stamp}.csv"`);
        // A byte-order mark so spreadsheet programs read the UTF-8 (accents, Chinese) correctly.
        res.write("\uFEFF");
        await pipeline(
          Readable.from(startingWith(first, csvRows)),
          stringify({
            ...CSV_OPTIONS,
            header: true,
            columns: CSV_COLUMNS.map((column) => csvCell(t(`staff.columns.${column}`))),
          }),
          res,
        );
        return STREAMED;
      },
    });

    defineRoute(router, operations.get, {
      before: [requireAdmin],
      async handle({ params }) {
        const detail = await getRequestDetail(deps, params.id, kind);
        if (!detail) return refuse(404, "not_found", "errors.notFound");
        return { status: 200, body: detail };
      },
    });

    defineRoute(router, operations.updateStatus, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const result = await changeRequestStatus(
          deps,
          { id: params.id, kind, change: body, actor: signedInAdmin(res) },
          { onMailQueued: staff.onMailQueued },
        );
        if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
        if (result.outcome === "invalid_status")
          throw new ValidationError([
            { path: "status", message: "staff.validation.statusInvalid" },
          ]);
        if (result.outcome === "reason_required")
          throw new ValidationError([
            { path: "reason", message: "staff.validation.reasonRequired" },
          ]);
        if (result.outcome === "conflict")
          return versionConflict(res.locals.language, result.current);
        if (result.outcome === "collision")
          return {
            status: 409,
            body: {
              ...collisionAnswer(res.locals.language, result.collidesWith),
              code: "calendar_collision",
            },
          };
        if (result.outcome === "imported_busy")
          return {
            status: 409,
            body: importedBusyAnswer(res.locals.language, result.importedBusy),
          };
        return { status: 200, body: result.request };
      },
    });

    defineRoute(router, DUE_OPERATIONS[kind], {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const language = res.locals.language;
        const result = await extendRequestDue(deps, {
          id: params.id,
          kind,
          dueAt: new Date(body.dueAt),
          version: body.version,
          actor: signedInAdmin(res),
        });
        if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
        if (result.outcome === "out_of_range")
          throw new ValidationError([{ path: "dueAt", message: "staff.lifecycle.extend.invalid" }]);
        if (result.outcome === "changed") return { status: 200, body: result.request };
        if (result.outcome === "conflict") return versionConflict(language, result.current);
        return {
          status: 409,
          body: {
            message: translate(language, "staff.lifecycle.extend.closed"),
            code: "request_closed",
            current: result.current,
          },
        };
      },
    });

    if (isStayKind(kind))
      defineRoute(router, STAY_OPERATIONS[kind], {
        before: [sameOrigin, requireAdmin],
        async handle({ params, body, res }) {
          const result = await setRequestStay(deps, {
            id: params.id,
            kind,
            propertyId: body.propertyId,
            nights: { start: body.start, end: body.end },
            version: body.version,
            actor: signedInAdmin(res),
          });
          const language = res.locals.language;
          if (result.outcome === "changed") staff.onMailQueued();
          if (result.outcome === "not_found" || result.outcome === "unknown_estate")
            return refuse(404, "not_found", "errors.notFound");
          if (result.outcome === "collision")
            return {
              status: 409,
              body: {
                ...collisionAnswer(language, result.collidesWith),
                code: "calendar_collision",
              },
            };
          if (result.outcome === "conflict") return versionConflict(language, result.current);
          return { status: 200, body: result.request };
        },
      });

    defineRoute(router, operations.addNote, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const note = await addRequestNote(deps, {
          id: params.id,
          kind,
          body: body.body,
          author: signedInAdmin(res),
        });
        if (!note) return refuse(404, "not_found", "errors.notFound");
        return { status: 201, body: note };
      },
    });

    defineRoute(router, STAFF_MESSAGE_OPERATIONS[kind].list, {
      before: [requireAdmin],
      async handle({ params, res }) {
        const messages = await readThreadAsStaff(deps, { id: params.id, kind });
        if (!messages) return refuse(404, "not_found", "errors.notFound");
        res.set("Cache-Control", "private, no-store");
        return { status: 200, body: messages };
      },
    });

    defineRoute(router, STAFF_MESSAGE_OPERATIONS[kind].send, {
      before: [sameOrigin, requireAdmin],
      async handle({ params, body, res }) {
        const result = await sendStaffMessage(
          deps,
          {
            id: params.id,
            kind,
            body: body.body,
            lastSeenMessageId: body.lastSeenMessageId,
            actor: signedInAdmin(res),
          },
          { onMailQueued: staff.onMailQueued },
        );
        if (result.outcome === "not_found") return refuse(404, "not_found", "errors.notFound");
        if (result.outcome === "conflict")
          return {
            status: 409,
            body: {
              message: translate(res.locals.language, "staff.conversation.conflict"),
              code: "message_conflict",
              messages: result.messages,
            },
          };
        return { status: 201, body: result.messages };
      },
    });
  }
  return router;
}
