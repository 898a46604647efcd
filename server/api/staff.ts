import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { type Request, type Response, Router } from "express";
import type { z } from "zod";
import { revokeSession } from "../../domain/auth/sessions.ts";
import type { Deps } from "../../domain/deps.ts";
import { ValidationError } from "../../domain/errors.ts";
import { discardMail, listUndeliveredMail, retryMail } from "../../domain/mail/outbox-health.ts";
import { fieldIssues } from "../../domain/requests/fields.ts";
import { type RequestKind, STATUS_KEYS } from "../../domain/requests/options.ts";
import { STAFF_COLLECTIONS } from "../../domain/staff/collections.ts";
import { addRequestNote, changeRequestStatus } from "../../domain/staff/change-status.ts";
import { csvRowOf, CSV_COLUMNS } from "../../domain/staff/inbox-csv.ts";
import {
  assertStatusOfKind,
  countInboxByStatus,
  getInboxOverview,
  getRequestDetail,
  listInbox,
  streamInbox,
} from "../../domain/staff/inbox.ts";
import {
  InboxFilterSchema,
  inboxFilterToSearch,
  NoteSchema,
  StatusChangeSchema,
} from "../../domain/staff/inbox.schema.ts";
import { loginStaff } from "../../domain/staff/login.ts";
import { StaffLoginSchema } from "../../domain/staff/login.schema.ts";
import { completeStaffSetup } from "../../domain/staff/setup.ts";
import { StaffSetupSchema } from "../../domain/staff/setup.schema.ts";
import { createSession } from "../../domain/auth/sessions.ts";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS } from "../../i18n/config.ts";
import { translate } from "../../i18n/translate.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import {
  clearSessionCookie,
  readSessionToken,
  requireAdminApi,
  type SessionCookie,
  setSessionCookie,
} from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { ignoredBody, jsonBody } from "./body.ts";
import { sendError } from "./errors.ts";

/** The input as the shared schema reads it, or a 400 naming each field (ValidationError). */
function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldIssues(parsed.error));
  return parsed.data;
}

/** The items of a generator whose first result was already read. */
async function* startingWith<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>) {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

function signedInStaff(res: Response) {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return session.user;
}

/** Sign-in, sign-out, first-admin setup and the staff inbox's calls (all JSON but the CSV). */
export function staffRoutes(
  deps: Deps,
  staff: StaffServices,
  cookie: SessionCookie,
  publicUrl: string,
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);

  const signIn = (res: Response, token: string, expiresAt: Date, language: string) => {
    setSessionCookie(res, cookie, token, expiresAt);
    // The staff area opens in the account's own language.
    res.cookie(LANGUAGE_COOKIE, language, {
      maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS * 1000,
      sameSite: "strict",
      secure: cookie.secure,
      path: "/",
    });
  };

  router.post("/admin/login", sameOrigin, ...jsonBody(), async (req: Request, res: Response) => {
    const input = parseWith(StaffLoginSchema, req.body);
    const result = await loginStaff(
      deps,
      staff.loginLimits,
      {
        ...input,
        ip: req.ip,
        userAgent: req.get("user-agent"),
      },
      cookie.policy,
    );
    res.set("Cache-Control", "no-store");
    if (result.outcome === "rate_limited") {
      res.set("Retry-After", String(result.retryAfterSeconds));
      return sendError(res, 429, "staff.login.tooManyAttempts", {
        minutes: Math.ceil(result.retryAfterSeconds / 60),
      });
    }
    if (result.outcome === "unavailable") return sendError(res, 503, "staff.login.unavailable");
    if (result.outcome === "invalid") return sendError(res, 401, "staff.login.invalid");
    signIn(res, result.token, result.expiresAt, result.user.language);
    res.json({ user: result.user });
  });

  router.post("/admin/logout", sameOrigin, ignoredBody(), async (req: Request, res: Response) => {
    const token = readSessionToken(req, cookie);
    if (token) await revokeSession(deps, token);
    clearSessionCookie(res, cookie);
    res.set("Cache-Control", "no-store").json({ ok: true });
  });

  router.get("/admin/me", (_req: Request, res: Response) => {
    res.set("Cache-Control", "private, no-store");
    const session = res.locals.session;
    if (!session || session.role !== "staff")
      return sendError(res, 401, "staff.errors.notSignedIn");
    res.json({ user: session.user });
  });

  router.post("/admin/setup", sameOrigin, ...jsonBody(), async (req: Request, res: Response) => {
    const input = parseWith(StaffSetupSchema, req.body);
    const result = await completeStaffSetup(deps, input, staff.adminEmailDomain);
    res.set("Cache-Control", "no-store");
    if (result.outcome === "link_invalid") return sendError(res, 400, "staff.setup.linkInvalid");
    if (result.outcome === "duplicate")
      throw new ValidationError([{ path: "email", message: "staff.setup.emailTaken" }]);
    if (result.outcome === "invalid_email")
      throw new ValidationError([{ path: "email", message: "validation.emailInvalid" }]);
    if (result.outcome === "wrong_domain")
      throw new ValidationError([{ path: "email", message: "staff.setup.wrongDomain" }]);
    if (result.outcome === "weak_password")
      throw new ValidationError([
        { path: "password", message: `staff.password.${result.problem}` },
      ]);
    const session = await createSession(
      deps,
      { role: "staff", staffUserId: result.user.id },
      {
        ip: req.ip,
        userAgent: req.get("user-agent"),
      },
      cookie.policy,
    );
    signIn(res, session.token, session.expiresAt, result.user.language);
    deps.log.info({ staffUserId: result.user.id }, "first admin created from the setup link");
    res.status(201).json({ user: result.user });
  });

  router.get("/admin/overview", requireAdmin, async (_req: Request, res: Response) => {
    const [overview, ...counts] = await Promise.all([
      getInboxOverview(deps),
      ...(Object.keys(STAFF_COLLECTIONS) as RequestKind[]).map((kind) =>
        countInboxByStatus(deps, kind),
      ),
    ]);
    const kinds = Object.keys(STAFF_COLLECTIONS) as RequestKind[];
    res.json({
      ...overview,
      counts: Object.fromEntries(kinds.map((kind, i) => [kind, counts[i]])),
    });
  });

  router.get("/admin/mail", requireAdmin, async (_req: Request, res: Response) => {
    res.json(await listUndeliveredMail(deps, {}));
  });
  router.post(
    "/admin/mail/:id/retry",
    sameOrigin,
    requireAdmin,
    ignoredBody(),
    async (req: Request, res: Response) => {
      const result = await retryMail(deps, String(req.params.id));
      if (result.outcome === "not_found") return sendError(res, 404, "errors.notFound");
      if (result.outcome === "not_failed") return sendError(res, 409, "staff.mail.notFailed");
      staff.onMailQueued();
      res.json({ ok: true });
    },
  );
  router.delete(
    "/admin/mail/:id",
    sameOrigin,
    requireAdmin,
    ignoredBody(),
    async (req: Request, res: Response) => {
      const result = await discardMail(deps, String(req.params.id), {
        by: signedInStaff(res).email,
      });
      if (result.outcome === "not_found") return sendError(res, 404, "errors.notFound");
      if (result.outcome === "not_failed") return sendError(res, 409, "staff.mail.notFailed");
      res.status(204).end();
    },
  );

  for (const [kind, path] of Object.entries(STAFF_COLLECTIONS) as [RequestKind, string][]) {
    router.get(path, requireAdmin, async (req: Request, res: Response) => {
      const filter = parseWith(InboxFilterSchema, { ...req.query, kind });
      const page = await listInbox(deps, filter);
      res.set("X-Total-Count", String(page.total));
      if (page.nextCursor) {
        // The path names the kind, so the link leaves `kind` out (its default is omitted).
        const next = inboxFilterToSearch({ ...filter, kind: undefined, after: page.nextCursor });
        res.set("Link", `<${publicUrl}/api${path}?${next}>; rel="next"`);
      }
      res.json(page.items);
    });

    router.get(`${path}/export.csv`, requireAdmin, async (req: Request, res: Response) => {
      const filter = parseWith(InboxFilterSchema, { ...req.query, kind, after: undefined });
      // Checked before the first byte: once streaming starts, a 400 can no longer be sent.
      assertStatusOfKind(kind, filter.status);
      // The first batch is read before the first byte too: a failed query is still an answer.
      const batches = streamInbox(deps, filter);
      const first = await batches.next();
      const language = res.locals.language;
      const stamp = new Date().toISOString().slice(0, 10);
      res
        .status(200)
        .set("Content-Type", "text/csv; charset=utf-8")
        .set("Content-Disposition", `attachment; filename="${kind}-${stamp}.csv"`);
      // A byte-order mark so spreadsheet programs read the UTF-8 (accents, Chinese) correctly.
      res.write("\uFEFF");
      const t = (key: string) => translate(language, key);
      const rows = Readable.from(startingWith(first, batches));
      const toCells = new Transform({
        objectMode: true,
        transform(item, _encoding, done) {
          done(null, csvRowOf(item, language, t));
        },
      });
      await pipeline(
        rows,
        toCells,
        stringify({
          header: true,
          columns: CSV_COLUMNS.map((column) => t(`staff.columns.${column}`)),
        }),
        res,
      );
    });

    router.get(`${path}/:id`, requireAdmin, async (req: Request, res: Response) => {
      const detail = await getRequestDetail(deps, String(req.params.id), kind);
      if (!detail) return sendError(res, 404, "errors.notFound");
      res.json(detail);
    });

    router.patch(
      `${path}/:id`,
      sameOrigin,
      requireAdmin,
      ...jsonBody(),
      async (req: Request, res: Response) => {
        const change = parseWith(StatusChangeSchema, req.body);
        const result = await changeRequestStatus(
          deps,
          { id: String(req.params.id), kind, change, actor: signedInStaff(res) },
          { onMailQueued: staff.onMailQueued },
        );
        if (result.outcome === "not_found") return sendError(res, 404, "errors.notFound");
        if (result.outcome === "invalid_status")
          throw new ValidationError([
            { path: "status", message: "staff.validation.statusInvalid" },
          ]);
        if (result.outcome === "reason_required")
          throw new ValidationError([
            { path: "reason", message: "staff.validation.reasonRequired" },
          ]);
        if (result.outcome === "conflict")
          return res.status(409).json({
            message: translate(res.locals.language, "staff.errors.conflict", {
              status: translate(
                res.locals.language,
                `staff.statuses.${STATUS_KEYS[result.current.status]}`,
              ),
            }),
            current: result.current,
          });
        res.json(result.request);
      },
    );

    router.post(
      `${path}/:id/notes`,
      sameOrigin,
      requireAdmin,
      ...jsonBody(),
      async (req: Request, res: Response) => {
        const { body } = parseWith(NoteSchema, req.body);
        const note = await addRequestNote(deps, {
          id: String(req.params.id),
          kind,
          body,
          author: signedInStaff(res),
        });
        if (!note) return sendError(res, 404, "errors.notFound");
        res.status(201).json(note);
      },
    );
  }
  return router;
}
