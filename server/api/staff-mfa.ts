import { type Request, type Response, Router } from "express";
import { advanceSessionStage, type SessionStage } from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { recordSecurityEvent } from "#domain/security/security-log.ts";
import * as mfa from "#domain/staff/mfa/mfa.contract.ts";
import {
  completeSecondFactor,
  confirmTotpEnrolment,
  describeFactors,
  hasSecondFactor,
  regenerateRecoveryCodes,
  removeTotp,
} from "#domain/staff/mfa/second-factor.ts";
import { startTotpEnrolment } from "#domain/staff/mfa/totp.ts";
import type { StaffUser } from "#domain/staff/staff-user.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { readSessionToken, type SessionCookie, setSessionCookie } from "../middleware/session.ts";
import { signInStepOf } from "../middleware/sign-in-stage.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, refuse, type Refusal } from "./define-route.ts";
import { passwordAgainRefusal } from "./password-again.ts";
import type { PasswordAgainAction } from "#domain/staff/password-again.ts";

interface StaffSession {
  user: StaffUser;
  sessionId: string;
  stage: SessionStage;
  token: string;
  /** A sign-in step's absolute expiry, kept when its token is renewed. */
  expiresAt?: Date;
}

/** The staff session of this request when it is at one of `stages`, else null. */
function staffSessionAt(
  req: Request,
  res: Response,
  cookie: SessionCookie,
  stages: SessionStage[],
): StaffSession | null {
  const step = signInStepOf(res);
  if (step) return stages.includes(step.stage) ? step : null;
  const session = res.locals.session;
  const token = readSessionToken(req, cookie);
  if (!session || session.role !== "staff" || !token || !stages.includes("complete")) return null;
  return { user: session.user, sessionId: session.sessionId, stage: "complete", token };
}

const clientOf = (req: Request) => ({ ip: req.ip, userAgent: req.get("user-agent") });

const wrongPassword = (): never => {
  throw new ValidationError([{ path: "password", message: "staff.mfa.passwordWrong" }]);
};

/**
 * A sign-in at `enrolment` whose account has a factor by now (set up from another session)
 * may not add one on the password alone: it must sign in again and give that factor.
 */
const enrolmentClosed = () => refuse(401, "sign_in_incomplete", "staff.errors.signInIncomplete");

/**
 * The second factor's calls: enrolment of an authenticator app, the sign-in's second
 * step, and a person's own factors. Each checks the session's stage itself: enrolment is open
 * to a session at `enrolment`, the second step only to one at `second_factor`.
 */
export function staffMfaRoutes(
  deps: Deps,
  staff: StaffServices,
  cookie: SessionCookie,
  publicUrl: string,
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(publicUrl);
  /** The password asked again: null when right, else the refusal (a wrong one names the field). */
  const passwordAgain = (
    req: Request,
    res: Response,
    user: StaffUser,
    password: string,
    action: PasswordAgainAction,
  ) =>
    passwordAgainRefusal(
      deps,
      staff.loginLimits,
      req,
      res,
      { user, password, action },
      (): Refusal<400> => wrongPassword(),
    );

  defineRoute(router, mfa.startTotpEnrolment, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete", "enrolment"]);
      if (!session) return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      // Adding a factor to a complete session asks for the password again.
      if (session.stage === "complete") {
        if (!body?.password) return wrongPassword();
        const refusal = await passwordAgain(
          req,
          res,
          session.user,
          body.password,
          "totp_enrolment",
        );
        if (refusal) return refusal;
      } else if (await hasSecondFactor(deps, session.user.id)) return enrolmentClosed();
      const result = await startTotpEnrolment(deps, session.user);
      if (result.outcome === "already_enrolled")
        return refuse(409, "mfa_already_enrolled", "staff.mfa.alreadyEnrolled");
      return { status: 200, body: result.enrolment };
    },
  });

  defineRoute(router, mfa.confirmTotpEnrolment, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete", "enrolment"]);
      if (!session) return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      if (session.stage === "enrolment" && (await hasSecondFactor(deps, session.user.id)))
        return enrolmentClosed();
      const result = await confirmTotpEnrolment(deps, {
        user: session.user,
        code: body.code,
        sessionId: session.sessionId,
        client: clientOf(req),
      });
      if (result.outcome === "invalid")
        throw new ValidationError([{ path: "code", message: "staff.mfa.codeWrong" }]);
      // An enrolment session is complete now: that is its sign-in.
      const moved =
        session.stage === "enrolment"
          ? await advanceSessionStage(deps, session.token, "enrolment", "complete")
          : null;
      if (moved && session.expiresAt) setSessionCookie(res, cookie, moved.token, session.expiresAt);
      if (moved)
        await recordSecurityEvent(deps.db, {
          type: "sign_in.succeeded",
          actor: { kind: "staff", staffUserId: session.user.id, email: session.user.email },
          client: clientOf(req),
          data: { method: "totp_enrolment" },
        });
      return { status: 200, body: { recoveryCodes: result.recoveryCodes } };
    },
  });

  defineRoute(router, mfa.completeSecondFactor, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["second_factor"]);
      if (!session) return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      const result = await completeSecondFactor(deps, staff.secondStepLimits, {
        user: session.user,
        token: session.token,
        sessionId: session.sessionId,
        code: body.code,
        client: clientOf(req),
      });
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        return refuse(429, "too_many_attempts", "staff.login.tooManyAttempts", {
          minutes: Math.ceil(result.retryAfterSeconds / 60),
        });
      }
      if (result.outcome === "unavailable")
        return refuse(503, "limiter_unavailable", "staff.login.unavailable");
      if (result.outcome === "ended")
        return refuse(401, "mfa_session_ended", "staff.mfa.sessionEnded");
      if (result.outcome === "invalid")
        throw new ValidationError([{ path: "code", message: "staff.mfa.codeWrong" }]);
      if (session.expiresAt) setSessionCookie(res, cookie, result.token, session.expiresAt);
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, mfa.removeTotp, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete"]);
      if (!session) return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      const refusal = await passwordAgain(req, res, session.user, body.password, "totp_removal");
      if (refusal) return refusal;
      const result = await removeTotp(deps, {
        user: session.user,
        mfaRequired: staff.mfaRequired,
        client: clientOf(req),
      });
      if (result.outcome === "not_enrolled") return refuse(404, "not_found", "errors.notFound");
      if (result.outcome === "last_factor")
        return refuse(409, "last_factor", "staff.mfa.lastFactor");
      return { status: 204 };
    },
  });

  defineRoute(router, mfa.regenerateRecoveryCodes, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete"]);
      if (!session) return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      const refusal = await passwordAgain(req, res, session.user, body.password, "recovery_codes");
      if (refusal) return refusal;
      const result = await regenerateRecoveryCodes(deps, {
        user: session.user,
        client: clientOf(req),
      });
      if (result.outcome === "no_factor") return refuse(409, "no_factor", "staff.mfa.noFactor");
      return { status: 200, body: { recoveryCodes: result.recoveryCodes } };
    },
  });

  defineRoute(router, mfa.getSecondFactors, {
    async handle({ req, res }) {
      res.set("Cache-Control", "private, no-store");
      const session = staffSessionAt(req, res, cookie, ["complete"]);
      if (!session) return refuse(401, "not_signed_in", "staff.errors.notSignedIn");
      const factors = await describeFactors(deps, session.user.id);
      return { status: 200, body: { ...factors, required: staff.mfaRequired } };
    },
  });

  return router;
}
