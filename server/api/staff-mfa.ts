import { type Request, type Response, Router } from "express";
import { advanceSessionStage, type SessionStage } from "../../domain/auth/sessions.ts";
import type { Deps } from "../../domain/deps.ts";
import { ValidationError } from "../../domain/errors.ts";
import { recordSecurityEvent } from "../../domain/security/security-log.ts";
import * as mfa from "../../domain/staff/mfa/mfa.contract.ts";
import {
  completeSecondFactor,
  confirmStaffPassword,
  confirmTotpEnrolment,
  describeFactors,
  regenerateRecoveryCodes,
  removeTotp,
} from "../../domain/staff/mfa/second-factor.ts";
import { startTotpEnrolment } from "../../domain/staff/mfa/totp.ts";
import type { StaffUser } from "../../domain/staff/staff-user.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { readSessionToken, type SessionCookie } from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";

interface StaffSession {
  user: StaffUser;
  sessionId: string;
  stage: SessionStage;
  token: string;
}

/** The staff session of this request when it is at one of `stages`, else null. */
function staffSessionAt(
  req: Request,
  res: Response,
  cookie: SessionCookie,
  stages: SessionStage[],
): StaffSession | null {
  const session = res.locals.session;
  const token = readSessionToken(req, cookie);
  if (!session || session.role !== "staff" || !token || !stages.includes(session.stage))
    return null;
  return { user: session.user, sessionId: session.sessionId, stage: session.stage, token };
}

const clientOf = (req: Request) => ({ ip: req.ip, userAgent: req.get("user-agent") });

const wrongPassword = () =>
  new ValidationError([{ path: "password", message: "staff.mfa.passwordWrong" }]);

/**
 * The second factor's calls (issue 21): enrolment of an authenticator app, the sign-in's second
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

  defineRoute(router, mfa.startTotpEnrolment, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete", "enrolment"]);
      if (!session) return refuse(401, "staff.errors.notSignedIn");
      // Adding a factor to a complete session asks for the password again.
      if (session.stage === "complete") {
        if (!body?.password) throw wrongPassword();
        if (!(await confirmStaffPassword(deps, session.user.id, body.password)))
          throw wrongPassword();
      }
      const result = await startTotpEnrolment(deps, session.user);
      if (result.outcome === "already_enrolled") return refuse(409, "staff.mfa.alreadyEnrolled");
      return { status: 200, body: result.enrolment };
    },
  });

  defineRoute(router, mfa.confirmTotpEnrolment, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete", "enrolment"]);
      if (!session) return refuse(401, "staff.errors.notSignedIn");
      const result = await confirmTotpEnrolment(deps, {
        user: session.user,
        code: body.code,
        client: clientOf(req),
      });
      if (result.outcome === "invalid")
        throw new ValidationError([{ path: "code", message: "staff.mfa.codeWrong" }]);
      // An enrolment session is complete now: that is its sign-in.
      if (
        session.stage === "enrolment" &&
        (await advanceSessionStage(deps, session.token, "enrolment", "complete"))
      )
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
      if (!session) return refuse(401, "staff.errors.notSignedIn");
      const result = await completeSecondFactor(deps, staff.secondStepLimits, {
        user: session.user,
        token: session.token,
        sessionId: session.sessionId,
        code: body.code,
        client: clientOf(req),
      });
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        return refuse(429, "staff.login.tooManyAttempts", {
          minutes: Math.ceil(result.retryAfterSeconds / 60),
        });
      }
      if (result.outcome === "unavailable") return refuse(503, "staff.login.unavailable");
      if (result.outcome === "ended") return refuse(401, "staff.mfa.sessionEnded");
      if (result.outcome === "invalid")
        throw new ValidationError([{ path: "code", message: "staff.mfa.codeWrong" }]);
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, mfa.removeTotp, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete"]);
      if (!session) return refuse(401, "staff.errors.notSignedIn");
      if (!(await confirmStaffPassword(deps, session.user.id, body.password)))
        throw wrongPassword();
      const result = await removeTotp(deps, {
        user: session.user,
        mfaRequired: staff.mfaRequired,
        client: clientOf(req),
      });
      if (result.outcome === "not_enrolled") return refuse(404, "errors.notFound");
      if (result.outcome === "last_factor") return refuse(409, "staff.mfa.lastFactor");
      return { status: 204 };
    },
  });

  defineRoute(router, mfa.regenerateRecoveryCodes, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const session = staffSessionAt(req, res, cookie, ["complete"]);
      if (!session) return refuse(401, "staff.errors.notSignedIn");
      if (!(await confirmStaffPassword(deps, session.user.id, body.password)))
        throw wrongPassword();
      const result = await regenerateRecoveryCodes(deps, {
        user: session.user,
        client: clientOf(req),
      });
      if (result.outcome === "no_factor") return refuse(409, "staff.mfa.noFactor");
      return { status: 200, body: { recoveryCodes: result.recoveryCodes } };
    },
  });

  defineRoute(router, mfa.getSecondFactors, {
    async handle({ req, res }) {
      res.set("Cache-Control", "private, no-store");
      const session = staffSessionAt(req, res, cookie, ["complete"]);
      if (!session) return refuse(401, "staff.errors.notSignedIn");
      const factors = await describeFactors(deps, session.user.id);
      return { status: 200, body: { ...factors, required: staff.mfaRequired } };
    },
  });

  return router;
}
