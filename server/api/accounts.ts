import { type NextFunction, type Request, type Response, Router } from "express";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { fieldIssues } from "#domain/requests/fields.ts";
import {
  acceptInvitation,
  checkInvitation,
  completePasswordReset,
  inviteStaff,
  PASSWORD_RESET_LIMITS,
  requestPasswordReset,
  sendPasswordResetLink,
} from "#domain/staff/account-links.ts";
import * as contract from "#domain/staff/accounts.contract.ts";
import {
  changeOwnPassword,
  endAccountSessions,
  endOwnSession,
  listAccounts,
  listOwnSessions,
  setAccountAdmin,
  setAccountDisabled,
} from "#domain/staff/manage-accounts.ts";
import type { Language } from "#i18n/config.ts";
import { sendError } from "./errors.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { requireAdminApi, type SessionCookie } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";

/** The signed-in staff session (a guard has run). */
function signedIn(res: Response) {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("a staff guard must run first");
  return session;
}

/** Any complete staff session, admin or not: the calls on one's own account. */
function requireStaffApi(_req: Request, res: Response, next: NextFunction) {
  const session = res.locals.session;
  if (!session || session.role !== "staff")
    return sendError(res, 401, "not_signed_in", "staff.errors.notSignedIn");
  res.set("Cache-Control", "private, no-store");
  next();
}

const clientOf = (req: Request) => ({ ip: req.ip, userAgent: req.get("user-agent") });
const ACCOUNT_NOT_FOUND = "staff.accounts.errors.notFound";
const LINK_INVALID = "staff.accounts.errors.linkInvalid";

/** The accounts calls (domain/staff/accounts.contract.ts). */
export function accountRoutes(
  deps: Deps,
  staff: StaffServices,
  cookie: SessionCookie,
  publicUrl: string,
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(publicUrl);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);
  const resetLimits = { store: staff.loginLimits.store, ...PASSWORD_RESET_LIMITS };
  const accountNotFound = () => refuse(404, "account_not_found", ACCOUNT_NOT_FOUND);

  defineRoute(router, contract.listAccounts, {
    before: [requireAdmin],
    async handle() {
      return { status: 200, body: { accounts: await listAccounts(deps, cookie.policy) } };
    },
  });

  defineRoute(router, contract.inviteAccount, {
    before: [sameOrigin, requireAdmin],
    async handle({ body, req, res }) {
      const result = await inviteStaff(deps, {
        email: body.email,
        isAdmin: body.isAdmin,
        admin: signedIn(res).user,
        adminEmailDomain: staff.adminEmailDomain,
        publicUrl,
        client: clientOf(req),
      });
      if (result.outcome === "invalid_email")
        throw new ValidationError([{ path: "email", message: "validation.emailInvalid" }]);
      if (result.outcome === "wrong_domain")
        throw new ValidationError([{ path: "email", message: "staff.setup.wrongDomain" }]);
      if (result.outcome === "exists")
        return refuse(409, "account_exists", "staff.accounts.errors.exists");
      staff.onMailQueued();
      return { status: 201, body: { email: result.email, expiresAt: result.expiresAt } };
    },
  });

  for (const [operation, change] of [
    [
      contract.setAccountDisabled,
      (id: string, body: { disabled?: boolean; isAdmin?: boolean }, context: Context) =>
        setAccountDisabled(deps, id, body.disabled!, context),
    ],
    [
      contract.setAccountAdmin,
      (id: string, body: { disabled?: boolean; isAdmin?: boolean }, context: Context) =>
        setAccountAdmin(deps, id, body.isAdmin!, context),
    ],
  ] as const)
    defineRoute(router, operation as typeof contract.setAccountDisabled, {
      before: [sameOrigin, requireAdmin],
      onInvalid: (part, issue) => {
        if (part === "params") return accountNotFound();
        throw new ValidationError(fieldIssues(issue));
      },
      async handle({ params, body, req, res }) {
        const result = await change(params.id, body, {
          admin: signedIn(res).user,
          client: clientOf(req),
        });
        if (result.outcome === "not_found") return accountNotFound();
        if (result.outcome === "last_admin")
          return refuse(409, "last_admin", "staff.accounts.errors.lastAdmin");
        return { status: 200, body: result.account };
      },
    });

  defineRoute(router, contract.endAccountSessions, {
    before: [sameOrigin, requireAdmin],
    onInvalid: accountNotFound,
    async handle({ params, req, res }) {
      const ended = await endAccountSessions(deps, params.id, {
        admin: signedIn(res).user,
        client: clientOf(req),
      });
      if (ended === null) return accountNotFound();
      return { status: 200, body: { ended } };
    },
  });

  defineRoute(router, contract.sendAccountPasswordReset, {
    before: [sameOrigin, requireAdmin],
    onInvalid: accountNotFound,
    async handle({ params, req, res }) {
      const sent = await sendPasswordResetLink(deps, {
        staffUserId: params.id,
        admin: signedIn(res).user,
        publicUrl,
        client: clientOf(req),
      });
      if (!sent) return accountNotFound();
      staff.onMailQueued();
      return { status: 202, body: { ok: true } };
    },
  });

  defineRoute(router, contract.getInvitation, {
    onInvalid: () => refuse(404, "link_invalid", LINK_INVALID),
    async handle({ params, res }) {
      res.set("Cache-Control", "no-store");
      const invitation = await checkInvitation(deps, params.token);
      if (!invitation) return refuse(404, "link_invalid", LINK_INVALID);
      return { status: 200, body: invitation };
    },
  });

  defineRoute(router, contract.acceptInvitation, {
    before: [sameOrigin],
    async handle({ params, body, req, res }) {
      res.set("Cache-Control", "no-store");
      const result = await acceptInvitation(deps, {
        token: params.token,
        displayName: body.displayName,
        password: body.password,
        language: (res.locals.language as Language | undefined) ?? "en",
        client: clientOf(req),
      });
      if (result.outcome === "link_invalid") return refuse(404, "link_invalid", LINK_INVALID);
      if (result.outcome === "exists")
        return refuse(409, "account_exists", "staff.accounts.errors.exists");
      if (result.outcome === "weak_password")
        throw new ValidationError([
          { path: "password", message: `staff.password.${result.problem}` },
        ]);
      return { status: 201, body: { user: result.user } };
    },
  });

  defineRoute(router, contract.listOwnSessions, {
    before: [requireStaffApi],
    async handle({ res }) {
      const session = signedIn(res);
      const sessions = await listOwnSessions(deps, session.user, session.sessionId, cookie.policy);
      return { status: 200, body: { sessions } };
    },
  });

  defineRoute(router, contract.endOwnSession, {
    before: [sameOrigin, requireStaffApi],
    onInvalid: () => refuse(404, "session_not_found", "staff.account.errors.sessionNotFound"),
    async handle({ params, req, res }) {
      const ended = await endOwnSession(deps, signedIn(res).user, params.id, clientOf(req));
      if (!ended) return refuse(404, "session_not_found", "staff.account.errors.sessionNotFound");
      return { status: 204 };
    },
  });

  defineRoute(router, contract.changeOwnPassword, {
    before: [sameOrigin, requireStaffApi],
    async handle({ body, req, res }) {
      const session = signedIn(res);
      const result = await changeOwnPassword(
        deps,
        staff.loginLimits,
        session.user,
        session.sessionId,
        { ...body, client: clientOf(req) },
      );
      if (result.outcome === "unavailable")
        return refuse(503, "limiter_unavailable", "staff.login.unavailable");
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        return refuse(429, "too_many_attempts", "staff.login.tooManyAttempts", {
          minutes: Math.ceil(result.retryAfterSeconds / 60),
        });
      }
      if (result.outcome === "wrong_password")
        throw new ValidationError([
          { path: "currentPassword", message: "staff.account.errors.wrongPassword" },
        ]);
      if (result.outcome === "weak_password")
        throw new ValidationError([
          { path: "newPassword", message: `staff.password.${result.problem}` },
        ]);
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, contract.requestPasswordReset, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const result = await requestPasswordReset(deps, resetLimits, {
        email: body.email,
        publicUrl,
        client: clientOf(req),
      });
      if (result.outcome === "unavailable")
        return refuse(503, "limiter_unavailable", "staff.login.unavailable");
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        return refuse(429, "too_many_attempts", "staff.login.tooManyAttempts", {
          minutes: Math.ceil(result.retryAfterSeconds / 60),
        });
      }
      staff.onMailQueued();
      return { status: 202, body: { ok: true } };
    },
  });

  defineRoute(router, contract.completePasswordReset, {
    before: [sameOrigin],
    onInvalid: (part, issue) => {
      if (part === "params") return refuse(404, "link_invalid", LINK_INVALID);
      throw new ValidationError(fieldIssues(issue));
    },
    async handle({ params, body, req, res }) {
      res.set("Cache-Control", "no-store");
      const result = await completePasswordReset(deps, {
        token: params.token,
        password: body.password,
        client: clientOf(req),
      });
      if (result.outcome === "link_invalid") return refuse(404, "link_invalid", LINK_INVALID);
      if (result.outcome === "weak_password")
        throw new ValidationError([
          { path: "password", message: `staff.password.${result.problem}` },
        ]);
      return { status: 200, body: { ok: true } };
    },
  });

  return router;
}

type Context = Parameters<typeof setAccountDisabled>[3];
