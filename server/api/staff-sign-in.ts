import { type Response, Router } from "express";
import { createSession, revokeSession } from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { setStaffLanguage } from "#domain/staff/accounts.ts";
import { loginStaff } from "#domain/staff/login.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import { completeStaffSetup } from "#domain/staff/setup.ts";
import * as auth from "#domain/staff/staff-auth.contract.ts";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS } from "#i18n/config.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import {
  clearSessionCookie,
  readSessionToken,
  requireAdminApi,
  type SessionCookie,
  setSessionCookie,
  signedInAdmin,
} from "../middleware/session.ts";
import { signInStepOf } from "../middleware/sign-in-stage.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";

/**
 * Staff sign-in (domain/staff/staff-auth.contract.ts): sign in, sign out, who is signed in,
 * the account's language and the first admin's setup link. The second factor's calls are in
 * ./staff-mfa.ts and ./passkeys.ts.
 */
export function staffSignInRoutes(
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

  defineRoute(router, auth.loginStaff, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      const result = await loginStaff(
        deps,
        staff.loginLimits,
        { ...body, ip: req.ip, userAgent: req.get("user-agent") },
        cookie.policy,
        { mfaRequired: staff.mfaRequired },
      );
      res.set("Cache-Control", "no-store");
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        return refuse(429, "too_many_attempts", "staff.login.tooManyAttempts", {
          minutes: Math.ceil(result.retryAfterSeconds / 60),
        });
      }
      if (result.outcome === "unavailable")
        return refuse(503, "limiter_unavailable", "staff.login.unavailable");
      if (result.outcome === "invalid")
        return refuse(401, "invalid_credentials", "staff.login.invalid");
      signIn(res, result.token, result.expiresAt, result.user.language);
      if (result.outcome === "second_factor")
        return {
          status: 200,
          body: { step: "second_factor", mfaRequired: true, methods: result.methods },
        };
      if (result.outcome === "enrolment")
        return { status: 200, body: { step: "enrolment", enrolmentRequired: true } };
      return { status: 200, body: { step: "signed_in", user: result.user } };
    },
  });

  defineRoute(router, auth.logoutStaff, {
    before: [sameOrigin],
    async handle({ req, res }) {
      const token = readSessionToken(req, cookie);
      const session = res.locals.session;
      const user = session?.role === "staff" ? session.user : signInStepOf(res)?.user;
      if (token) await revokeSession(deps, token);
      if (user)
        await recordSecurityEvent(deps.db, {
          type: "sign_out",
          actor: { kind: "staff", staffUserId: user.id, email: user.email },
          client: { ip: req.ip, userAgent: req.get("user-agent") },
        });
      clearSessionCookie(res, cookie);
      res.set("Cache-Control", "no-store");
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, auth.getSignedInStaffUser, {
    async handle({ res }) {
      res.set("Cache-Control", "private, no-store");
      const session = res.locals.session;
      if (!session || session.role !== "staff")
        return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      return { status: 200, body: { user: session.user } };
    },
  });

  // The only way the account's language changes: a GET with `?lang=` shows a page in a
  // language and stores nothing.
  defineRoute(router, auth.rememberStaffLanguage, {
    before: [sameOrigin, requireAdmin],
    async handle({ body, res }) {
      await setStaffLanguage(deps, signedInAdmin(res).id, body.language);
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, auth.completeStaffSetup, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      const result = await completeStaffSetup(deps, body, staff.adminEmailDomain);
      res.set("Cache-Control", "no-store");
      if (result.outcome === "link_invalid")
        return refuse(400, "setup_link_invalid", "staff.setup.linkInvalid");
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
      // While a second factor is required, the link is worth a password, not a full sign-in.
      const step = staff.mfaRequired ? "enrolment" : "signed_in";
      const session = await createSession(
        deps,
        { role: "staff", staffUserId: result.user.id },
        { ip: req.ip, userAgent: req.get("user-agent") },
        cookie.policy,
        step === "enrolment" ? "enrolment" : "complete",
      );
      signIn(res, session.token, session.expiresAt, result.user.language);
      deps.log.info({ staffUserId: result.user.id }, "first admin created from the setup link");
      return { status: 201, body: { user: result.user, step } };
    },
  });

  return router;
}
